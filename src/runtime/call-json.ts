import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { ErrorBody } from '../protocol/error-codes.ts'
import type { CallResult, RunIds, RunView } from '../protocol/call-result.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { defaultModelOutput } from './model-output.ts'
import type { CallEnding } from './start-call.ts'

/** Where a call or a run stands: a stored run, an execution's outcome, a kept call's state. */
export interface CallState extends Pick<RunView, 'status' | 'output' | 'modelOutput' | 'approvalId' | 'suspendPayload'> {
  reason?: string | null
  error?: ToolrouteError | ErrorBody['error']
}

/** SPEC §2's JSON answer and its status, or the error the answer is. */
export type CallJson = { ok: true; status: 200 | 202; body: CallResult } | { ok: false; error: ToolrouteError }

const running = { status: 'running' } as const

/**
 * The JSON answer of SPEC §2 for a call's ending or a stored run: behind a call's answer, an
 * idempotency record (a replay is byte for byte the first answer) and a run's later step.
 */
export function callJson(ids: RunIds, from: CallEnding<unknown> | CallState, tool: AnyTool | undefined): CallJson {
  const state = 'kind' in from ? stateOf(from) : from
  if (!state) return { ok: false, error: (from as { error: ToolrouteError }).error }
  const { runId, toolCallId } = ids
  switch (state.status) {
    case 'completed':
      return { ok: true, status: 200, body: { runId, toolCallId, status: 'completed', output: state.output, modelOutput: state.modelOutput ?? defaultModelOutput(state.output) } }
    case 'approval-required':
      return { ok: true, status: 202, body: { runId, toolCallId, status: 'approval-required', approvalId: state.approvalId ?? '' } }
    case 'suspended':
      return { ok: true, status: 202, body: { runId, toolCallId, status: 'suspended', suspendPayload: state.suspendPayload, resumeSchema: tool?.schemas.resume?.jsonSchema } }
    case 'running':
      return { ok: true, status: 202, body: { runId, toolCallId, status: 'running' } }
    case 'declined':
      return { ok: true, status: 200, body: { runId, toolCallId, status: 'declined', reason: state.reason ?? null } }
    case 'cancelled':
      return { ok: true, status: 200, body: { runId, toolCallId, status: 'cancelled' } }
    case 'expired':
      return { ok: false, error: new ToolrouteError('RUN_EXPIRED', `Run ${runId} expired`) }
    case 'failed': {
      const error = state.error ?? { code: 'EXECUTION_FAILED' as const, message: 'The tool failed' }
      return { ok: false, error: ToolrouteError.isInstance(error) ? error : new ToolrouteError(error.code, error.message, error.issues ? { issues: error.issues } : undefined) }
    }
  }
}

/** An ending's state; none for invalid input, which is its error. */
function stateOf(ending: CallEnding<unknown>): CallState | undefined {
  if (ending.kind === 'executed') return ending.outcome
  if (ending.kind === 'background') return running
  return ending.kind === 'approval-required' ? { status: 'approval-required', approvalId: ending.approvalId } : undefined
}
