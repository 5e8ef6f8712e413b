/**
 * Idempotent calls (SPEC §9): one record per (principal, `Idempotency-Key`), written by the first
 * request with that key and read by every repeat. One contract, several backends: memory, a
 * Durable Object per key, Deno KV (test/shared/idempotency-store-contract.ts holds them to it).
 */

/** Who sent a key: keys are scoped to the principal, so two callers never share one. */
export interface IdempotencyScope {
  principal: string | null
  key: string
}

/**
 * What the first request answered, as JSON (SPEC §2 "JSON responses", or an error body): a JSON
 * repeat gets exactly this back; an SSE repeat replays the run `runId` instead.
 */
export interface IdempotentAnswer {
  status: number
  /** The response body as JSON text, byte for byte what the first request sent. */
  body: string
  runId: string
  toolCallId: string
}

/** Where a request with a key stands. */
export type IdempotencyBegin =
  /** The first with this key: it executes, then calls `complete` (or `release`). */
  | { state: 'new' }
  /** A repeat of a request that ended: answer what it answered. */
  | { state: 'replay'; answer: IdempotentAnswer }
  /** A repeat while the first still executes: `409 IDEMPOTENCY_CONFLICT`. */
  | { state: 'conflict' }
  /** The key with another request (another tool or body): `422 IDEMPOTENCY_KEY_REUSED`. */
  | { state: 'reused' }

export interface IdempotencyStore {
  /**
   * Claims the key for a request whose fingerprint is `fingerprint`, atomically: of any number
   * of racing requests with one key, exactly one gets `new`.
   */
  begin(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyBegin>
  /** Records the first request's answer; repeats from now on replay it. */
  complete(scope: IdempotencyScope, fingerprint: string, answer: IdempotentAnswer): Promise<void>
  /**
   * Gives the key up: the first request was refused before anything ran (bad input), so its
   * repeat is a new request. A no-op unless the key is still held by `fingerprint`.
   */
  release(scope: IdempotencyScope, fingerprint: string): Promise<void>
}

/** How long a key is kept by default: 24 h, as the IETF draft and Stripe suggest. */
export const defaultIdempotencyRetentionMs = 24 * 60 * 60 * 1000

/**
 * The record a backend keeps per key. `pending` while the first request executes; it stays
 * pending if that request dies mid-way (a key is never handed to a second execution: at most
 * once), until the retention ends.
 */
export type IdempotencyRecord =
  | { state: 'pending'; fingerprint: string; createdAt: number }
  | { state: 'done'; fingerprint: string; createdAt: number; answer: IdempotentAnswer }

/** What `begin` answers for an existing record (shared by every backend). */
export function beginFrom(record: IdempotencyRecord, fingerprint: string): IdempotencyBegin {
  if (record.fingerprint !== fingerprint) return { state: 'reused' }
  return record.state === 'pending' ? { state: 'conflict' } : { state: 'replay', answer: record.answer }
}
