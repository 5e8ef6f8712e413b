import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import type { RunRecord } from './run-record.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import type { RunIndexPage, RunQuery } from './run-index.ts'

/** Who is asking: runs answer only the principal that created them. An approve or resume's `traceparent` parents its step's span (SPEC §17). */
export interface RunCaller {
  principal: string | null
  traceparent?: string | undefined
}

/** A page of a run's events, oldest first: the newest `limit` (default 100, at most 1000) numbered before `before`. */
export interface RunEventPage {
  before?: number
  limit?: number
}

/** The events of one step of a run (an approval, a resume), live until that step ends. */
export interface RunSegment {
  /** The run as the step found it, after its state change. */
  run: RunRecord
  /** The step's events, from its `start` to its `finish`. */
  events: AsyncIterable<SequencedEvent>
  /** The sequence number the step's events follow, when known. */
  after?: number
  /** The run once the step is over. */
  settled: Promise<RunRecord>
  /** Aborts the step (its caller left); a promise when it travels to a Durable Object: keep it alive (`waitUntil`). */
  abort(reason?: unknown): void | Promise<void>
}

/**
 * What the HTTP and MCP surfaces ask of durable runs: the engine in process, or on Workers a stub
 * that forwards each call to the run's own Durable Object, where the engine runs.
 */
export interface RunHost {
  /** Stores a run the request started that now waits for a human, or that goes on in the background. */
  open(run: RunRecord, events: readonly ToolEvent[]): Promise<void>
  approve(runId: string, caller: RunCaller & { approvalId?: string }): Promise<RunSegment>
  decline(runId: string, caller: RunCaller & { reason?: string }): Promise<RunSegment>
  resume(runId: string, caller: RunCaller & { resumeData: unknown }): Promise<RunSegment>
  cancel(runId: string, caller: RunCaller): Promise<RunRecord>
  /**
   * Answers questions a running step asked mid-`execute` (`RunRecord.questions`), each once; other
   * keys are ignored. Resolves with the keys answered. Absent on a host whose runs never ask.
   */
  answer?(runId: string, caller: RunCaller & { answers: Record<string, ElicitResult> }): Promise<string[]>
  /** The run a caller may see, with no events unless `events` asks for a page (SPEC §12). */
  get(runId: string, caller: RunCaller & { events?: RunEventPage }): Promise<{ run: RunRecord; events: SequencedEvent[] }>
  /** Replays events after `after`, then follows live until the run stops running. */
  follow(runId: string, caller: RunCaller & { after: number; signal?: AbortSignal }): Promise<AsyncIterable<SequencedEvent>>
  /**
   * The caller's runs as listed (`GET /runs`, MCP's tasks), newest first, a page at a time (`withRunIndex`;
   * `limit` 20 by default, at most 100). A caller without a principal gets none. Absent on a host that keeps no runs.
   */
  list?(caller: RunCaller, query?: Partial<RunQuery>): Promise<RunIndexPage>
}
