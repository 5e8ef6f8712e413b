import type { IdempotencyRecord } from './idempotency-store.ts'

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isAnswer = (value: unknown) =>
  isObject(value) && Number.isInteger(value.status) && typeof value.body === 'string' && typeof value.runId === 'string' && typeof value.toolCallId === 'string'

/**
 * Decodes a stored key's record, checked, not cast: records outlive the code that wrote them.
 * Throws on one this code cannot read (the call then fails; it never executes a second time).
 * Fields it does not know are dropped. Checked by hand, so a Worker carries no Zod for it.
 */
export function decodeIdempotencyRecord(value: unknown): IdempotencyRecord {
  if (!isObject(value) || typeof value.fingerprint !== 'string' || typeof value.createdAt !== 'number') throw new Error('A stored Idempotency-Key record cannot be read')
  const { state, fingerprint, createdAt, answer } = value
  if (state === 'pending') return { state, fingerprint, createdAt }
  if (state === 'done' && isAnswer(answer)) {
    const { status, body, runId, toolCallId } = answer as { status: number; body: string; runId: string; toolCallId: string }
    return { state, fingerprint, createdAt, answer: { status, body, runId, toolCallId } }
  }
  throw new Error('A stored Idempotency-Key record cannot be read')
}
