import { z } from 'zod'
import type { IdempotencyRecord } from './idempotency-store.ts'

const answerSchema = z.object({ status: z.number().int(), body: z.string(), runId: z.string(), toolCallId: z.string() })

const idempotencyRecordSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('pending'), fingerprint: z.string(), createdAt: z.number() }),
  z.object({ state: z.literal('done'), fingerprint: z.string(), createdAt: z.number(), answer: answerSchema }),
])

/**
 * Decodes a stored key's record, checked, not cast: records outlive the code that wrote them.
 * Throws on one this code cannot read (the call then fails; it never executes a second time).
 */
export function decodeIdempotencyRecord(value: unknown): IdempotencyRecord {
  return idempotencyRecordSchema.parse(value) as IdempotencyRecord
}
