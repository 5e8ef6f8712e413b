import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { IdempotencyLease, IdempotencyRecord, IdempotentAnswer } from './idempotency-store.ts'

const interrupted = () => new ToolrouteError('EXECUTION_FAILED', 'The call was interrupted before it finished')

/** A key's record as a backend reads it now (`liveRecord`): none, or its record, with the lease that lapsed if just settled. */
export type LiveRecord = { record?: undefined; interrupted?: undefined } | { record: IdempotencyRecord; interrupted?: IdempotencyLease }

/**
 * A stored key's record as it stands at `now` (shared by every backend): none past its retention; once
 * a pending key's lease ran out, its call was cut off by a crash (SPEC §12): the record that answers
 * `EXECUTION_FAILED` "interrupted", and the lapsed lease as `interrupted`, for the backend to write, then open its run.
 */
export function liveRecord(stored: IdempotencyRecord | undefined, now: number, retentionMs: number): LiveRecord {
  if (!stored || stored.createdAt + retentionMs <= now) return {}
  if (stored.state !== 'pending' || stored.lease === undefined || stored.lease.until > now) return { record: stored }
  const { lease, fingerprint, createdAt } = stored
  const error = interrupted()
  const answer: IdempotentAnswer = { status: error.status, body: JSON.stringify(error.toJSON()), runId: lease.runId, toolCallId: lease.toolCallId }
  return { record: { state: 'done', fingerprint, createdAt, answer }, interrupted: lease }
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
