import type { RunIds } from '../protocol/call-result.ts'

/** Who sent a key: keys are scoped to the principal, so two callers never share one. */
export interface IdempotencyScope {
  principal: string | null
  key: string
}

/** What the first request answered, as JSON: a JSON repeat gets exactly this back, an SSE repeat replays run `runId`. */
export interface IdempotentAnswer extends RunIds {
  status: number
  /** The response body as JSON text, byte for byte what the first request sent. */
  body: string
  /** The first request's trace (SPEC §17); a key settled as interrupted has none. */
  traceId?: string
}

/** What the first request tells the store as it claims a key: enough to settle it if a crash cuts it off (SPEC §12). */
export interface IdempotencyClaim extends RunIds {
  toolId: string
  principal: string | null
}

/** A pending key's lease: its claim, held until `until` (ms) unless the first request renews it. */
export interface IdempotencyLease extends IdempotencyClaim {
  until: number
}

/** Where a request with a key stands. */
export type IdempotencyBegin =
  /** The first with this key: it executes, then calls `complete` (or `release`), renewing every `renewEveryMs`. */
  | { state: 'new'; renewEveryMs?: number }
  /** A repeat of a request that ended: answer what it answered. */
  | { state: 'replay'; answer: IdempotentAnswer }
  /** A repeat while the first still executes: `409 IDEMPOTENCY_CONFLICT`. */
  | { state: 'conflict' }
  /** The key with another request (another tool or body): `422 IDEMPOTENCY_KEY_REUSED`. */
  | { state: 'reused' }

/**
 * Idempotent calls (SPEC §9): one record per (principal, `Idempotency-Key`), written by the first
 * request and read by every repeat (test/shared/idempotency-store-contract.ts holds each backend).
 */
export interface IdempotencyStore {
  /** Claims the key for a request of `fingerprint`, atomically: of racing requests, exactly one gets `new`. */
  begin(scope: IdempotencyScope, fingerprint: string, claim?: IdempotencyClaim): Promise<IdempotencyBegin>
  /** Renews the first request's lease, a compare-and-set: `false` once the key was settled as interrupted. */
  renew?(scope: IdempotencyScope, fingerprint: string): Promise<boolean>
  /** Records the first request's answer; repeats from now on replay it. */
  complete(scope: IdempotencyScope, fingerprint: string, answer: IdempotentAnswer): Promise<void>
  /** Gives the key up (the request was refused before anything ran), if `fingerprint` still holds it. */
  release(scope: IdempotencyScope, fingerprint: string): Promise<void>
}

/** How long a key is kept by default: 24 h, as the IETF draft and Stripe suggest. */
export const defaultIdempotencyRetentionMs = 24 * 60 * 60 * 1000

/**
 * The record a backend keeps per key: `pending` under the first request's lease; once a lease
 * lapses the key is `done` with the interrupted answer (`liveRecord`), so a key never runs
 * twice and is never stuck. A pending record without a lease stays pending until retention ends.
 */
export type IdempotencyRecord =
  | { state: 'pending'; fingerprint: string; createdAt: number; lease?: IdempotencyLease }
  | { state: 'done'; fingerprint: string; createdAt: number; answer: IdempotentAnswer }

/** What `begin` answers for an existing record (shared by every backend). */
export function beginFrom(record: IdempotencyRecord, fingerprint: string): IdempotencyBegin {
  if (record.fingerprint !== fingerprint) return { state: 'reused' }
  return record.state === 'pending' ? { state: 'conflict' } : { state: 'replay', answer: record.answer }
}
