import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { IdempotencyLease, IdempotencyRecord, IdempotentAnswer } from './idempotency-store.ts'

const interrupted = () => new ToolrouteError('EXECUTION_FAILED', 'The call was interrupted before it finished')

/** The record of a keyed call cut off by a crash (SPEC §12): its key now answers `EXECUTION_FAILED` "interrupted". */
export function settleInterrupted(record: Extract<IdempotencyRecord, { state: 'pending' }>, lease: IdempotencyLease): IdempotencyRecord {
  const error = interrupted()
  const answer: IdempotentAnswer = { status: error.status, body: JSON.stringify(error.toJSON()), runId: lease.runId, toolCallId: lease.toolCallId }
  return { state: 'done', fingerprint: record.fingerprint, createdAt: record.createdAt, answer }
}

/** Opens in `runs` the run such a call leaves, failed alike, for an SSE repeat and `GET /runs/:runId`; a key keeps no input. */
export async function openInterruptedRun(runs: Pick<RunHost, 'open'>, lease: IdempotencyLease): Promise<void> {
  const at = new Date().toISOString()
  const { runId, toolCallId, toolId, principal } = lease
  const error = interrupted()
  return runs.open(
    { runId, toolId, toolCallId, principal, status: 'failed', createdAt: at, updatedAt: at, input: undefined, requestContext: {}, error: error.toJSON().error },
    [
      { type: 'start', messageMetadata: { runId, toolCallId } },
      { type: 'tool-output-error', toolCallId, errorText: error.message },
      { type: 'finish', finishReason: 'error' },
    ],
  )
}
