import type { IdempotencyLease, IdempotencyRecord, IdempotentAnswer } from './idempotency-store.ts'
import { isObject, isString } from '../runs/run-record.ts'

const isAnswer = (value: unknown) => isObject(value) && Number.isInteger(value.status) && [value.body, value.runId, value.toolCallId].every(isString)
const isLease = (value: unknown): value is IdempotencyLease =>
  isObject(value) && typeof value.until === 'number' && [value.runId, value.toolCallId, value.toolId].every(isString) && (value.principal === null || isString(value.principal))

/**
 * A stored key's record, checked, not cast: throws on one this code cannot read (the call then
 * fails, never executing twice); unknown fields are dropped. By hand, so a Worker carries no Zod.
 */
export function decodeIdempotencyRecord(value: unknown): IdempotencyRecord {
  if (!isObject(value) || typeof value.fingerprint !== 'string' || typeof value.createdAt !== 'number') throw new Error('A stored Idempotency-Key record cannot be read')
  const { state, fingerprint, createdAt, answer, lease } = value
  if (state === 'pending' && lease === undefined) return { state, fingerprint, createdAt }
  if (state === 'pending' && isLease(lease)) {
    const { until, runId, toolCallId, toolId, principal } = lease
    return { state, fingerprint, createdAt, lease: { until, runId, toolCallId, toolId, principal } }
  }
  if (state === 'done' && isAnswer(answer)) {
    const { status, body, runId, toolCallId, traceId } = answer as IdempotentAnswer
    return { state, fingerprint, createdAt, answer: { status, body, runId, toolCallId, ...(isString(traceId) && { traceId }) } }
  }
  throw new Error('A stored Idempotency-Key record cannot be read')
}
