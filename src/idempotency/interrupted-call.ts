import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { IdempotencyLease, IdempotencyRecord, IdempotentAnswer } from './idempotency-store.ts'

const interrupted = () => new ToolrouteError('EXECUTION_FAILED', 'The call was interrupted before it finished')

/**
 * A keyed call cut off by a crash (SPEC §12 "Crash recovery"): what its key answers from now on,
 * `EXECUTION_FAILED` "interrupted", replayed like any failure (the same status and body on every
 * repeat), and the record that says so.
 */
export function settleInterrupted(record: Extract<IdempotencyRecord, { state: 'pending' }>, lease: IdempotencyLease): IdempotencyRecord {
  const error = interrupted()
  const answer: IdempotentAnswer = { status: error.status, body: JSON.stringify(error.toJSON()), runId: lease.runId, toolCallId: lease.toolCallId }
  return { state: 'done', fingerprint: record.fingerprint, createdAt: record.createdAt, answer }
}

/**
 * The run such a call leaves, failed with the same error, so that an SSE repeat replays its end
 * and `GET /runs/:runId` answers it. Its input is not known: a key keeps the request's
 * fingerprint, not its body.
 */
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
