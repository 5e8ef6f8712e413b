import type { ErrorBody } from './error-codes.ts'
import type { ToolModelOutput } from './model-output.ts'

/** Where a run is. Waiting states expire; settled states are kept for a retention period. */
export type RunStatus =
  | 'running'
  | 'approval-required'
  | 'suspended'
  | 'completed'
  | 'failed'
  | 'declined'
  | 'cancelled'
  | 'expired'

/** The ids every answer carries. */
export interface RunIds {
  runId: string
  toolCallId: string
}

/** A call that finished: `200`. */
export interface CompletedResult<TOutput = unknown> extends RunIds {
  status: 'completed'
  output: TOutput
  modelOutput: ToolModelOutput
}

/** A call waiting for `POST /runs/:runId/approve` or `/decline`: `202`. */
export interface ApprovalRequiredResult extends RunIds {
  status: 'approval-required'
  approvalId: string
}

/** A call waiting for `POST /runs/:runId/resume`: `202`. */
export interface SuspendedResult<TSuspend = unknown> extends RunIds {
  status: 'suspended'
  suspendPayload: TSuspend
  resumeSchema?: Record<string, unknown>
}

/** A background run that goes on without its caller: `202`; follow `GET /runs/:runId/events`. */
export interface RunningResult extends RunIds {
  status: 'running'
}

/** A declined approval: `200`; the tool never executed. */
export interface DeclinedResult extends RunIds {
  status: 'declined'
  reason: string | null
}

/** A cancelled run: `200`. */
export interface CancelledResult extends RunIds {
  status: 'cancelled'
}

/** The JSON answer of a call, an approval, a decline or a resume (SPEC §2 "JSON responses"). */
export type CallResult<TOutput = unknown, TSuspend = unknown> =
  | CompletedResult<TOutput>
  | ApprovalRequiredResult
  | SuspendedResult<TSuspend>
  | RunningResult
  | DeclinedResult
  | CancelledResult

/** The answer of `POST /runs/:runId/cancel`: where the run is now. */
export interface CancelResult extends RunIds {
  status: RunStatus
}

/** The public view of a run (`GET /runs/:runId`), without what only the server may see. */
export interface RunView extends RunIds {
  toolId: string
  status: RunStatus
  createdAt: string
  updatedAt: string
  /** The trace of the call that made the run (SPEC §17). */
  traceId?: string
  expiresAt?: string
  /** Each status the run took and when (ISO time), oldest first: its waits and steps, timed (the playground's timeline). */
  history?: { status: RunStatus; at: string }[]
  suspendPayload?: unknown
  resumeSchema?: Record<string, unknown>
  approvalId?: string
  output?: unknown
  modelOutput?: ToolModelOutput
  error?: ErrorBody['error']
  reason?: string
  /** The transcript view of the run's latest page of events (`?before=` reads an earlier page). */
  transcript: unknown[]
  /**
   * Present while earlier events exist: pass it as `?before=` to read the page before this one
   * (`?limit=` sets how many events a page covers: default 100, at most 1000).
   */
  transcriptCursor?: string
}

/** A run as `GET /runs` lists it and a webhook tells of it (SPEC §16): ids, status and times, never input, output or payloads. */
export type RunSummary = Pick<RunView, 'runId' | 'toolId' | 'toolCallId' | 'status' | 'createdAt' | 'updatedAt' | 'approvalId' | 'expiresAt'>

/** The query of `GET /runs` (`?status=a,b&toolId=&limit=&cursor=`), as `listRuns(filter)` takes it. */
export interface RunListFilter {
  /** One status, or several (any of them). */
  status?: RunStatus | readonly RunStatus[]
  toolId?: string
  /** Runs a page (default 20, at most 100). */
  limit?: number
  /** The `cursor` of the page before. */
  cursor?: string
}

/** The answer of `GET /runs`: the caller's runs, newest first; `cursor` is present while more remain. */
export interface RunList {
  runs: RunSummary[]
  cursor?: string
}
