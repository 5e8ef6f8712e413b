import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { IdempotencyLease, IdempotencyRecord, IdempotentAnswer } from './idempotency-store.ts'

const interrupted = () => new ToolrouteError('EXECUTION_FAILED', 'The call was interrupted before it finished')

/** The record of a keyed call cut off by a crash (SPEC §12): its key now answers `EXECUTION_FAILED` "interrupted". */
export function settleInterrupted(record: Extract<IdempotencyRecord, { state: 'pending' }>, lease: IdempotencyLease): IdempotencyRecord {
  const error = interrupted()
  const answer: IdempotentAnswer = { status: error.status, body: JSON.stringify(error.toJSON()), runId: lease.runId, toolCallId: lease.toolCallId }
  return { state: 'done', fingerprint: record.fingerprint, createdAt: record.createdAt, answer }
}

/** The run such a call leaves, failed alike, for an SSE repeat and `GET /runs/:runId`; a key keeps no input. */
export function interruptedRun(lease: IdempotencyLease, now: number): { run: RunRecord; events: ToolEvent[] } {
  const at = new Date(now).toISOString()
  const { runId, toolCallId, toolId, principal } = lease
  const error = interrupted()
  return {
    run: { runId, toolId, toolCallId, principal, status: 'failed', createdAt: at, updatedAt: at, input: undefined, requestContext: {}, error: error.toJSON().error },
    events: [
      { type: 'start', messageMetadata: { runId, toolCallId } },
      { type: 'tool-output-error', toolCallId, errorText: error.message },
      { type: 'finish', finishReason: 'error' },
    ],
  }
}
