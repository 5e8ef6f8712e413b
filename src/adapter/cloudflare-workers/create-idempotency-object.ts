import { DurableObject } from 'cloudflare:workers'
import { defaultIdempotencyRetentionMs, type IdempotencyBegin, type IdempotencyClaim, type IdempotencyLease, type IdempotentAnswer } from '../../idempotency/idempotency-store.ts'
import { defaultLeaseMs } from '../../runs/default-lease-ms.ts'
import { createDurableObjectIdempotencyKey, type DurableObjectIdempotencyKey } from './durable-object-idempotency-key.ts'
import { millisecondsOf } from './milliseconds-of.ts'

export interface IdempotencyObjectOptions {
  /**
   * How long a key is kept from its first request: the run retention (`retentionMs`, else the
   * `TOOLROUTE_RETENTION_MS` var, default 24 h), so a key never outlives the run an SSE repeat replays.
   */
  retentionMs?: number
  /** How long a first request's lease on its key lasts unrenewed (`leaseMs`, else the `TOOLROUTE_LEASE_MS` var, default 30 s). */
  leaseMs?: number
  /** Stores the failed run a call cut off by a crash leaves (`createWorker` opens it in the run's own object). */
  onInterrupted?: (env: unknown, lease: IdempotencyLease) => Promise<void>
}

/** An idempotency key's Durable Object: the RPC methods its store calls, and its alarm. */
export interface IdempotencyObject extends DurableObject, Omit<DurableObjectIdempotencyKey, 'sweep'> {
  readonly key: DurableObjectIdempotencyKey
  alarm(): Promise<void>
}

/**
 * The Durable Object class that holds one idempotency key (`idFromName` of principal and key): its record,
 * and the alarm that settles it when its request's lease lapses and forgets it once its retention ends.
 */
// The return type is spelled out: the .d.ts cannot carry an anonymous class extending DurableObject.
export function createIdempotencyObject(options: IdempotencyObjectOptions = {}): new (ctx: DurableObjectState, env: unknown) => IdempotencyObject {
  return class IdempotencyObject extends DurableObject {
    readonly key: DurableObjectIdempotencyKey

    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env as never)
      const vars = (env ?? {}) as Record<string, unknown>
      const retentionMs = millisecondsOf(options.retentionMs, vars.TOOLROUTE_RETENTION_MS) ?? defaultIdempotencyRetentionMs
      const leaseMs = millisecondsOf(options.leaseMs, vars.TOOLROUTE_LEASE_MS) ?? defaultLeaseMs
      const { onInterrupted } = options
      this.key = createDurableObjectIdempotencyKey(ctx.storage, { retentionMs, leaseMs, ...(onInterrupted ? { onInterrupted: (lease) => onInterrupted(env, lease) } : {}) })
    }

    begin(fingerprint: string, claim?: IdempotencyClaim): Promise<IdempotencyBegin> {
      return this.key.begin(fingerprint, claim)
    }
    renew(fingerprint: string): Promise<boolean> {
      return this.key.renew(fingerprint)
    }
    complete(fingerprint: string, answer: IdempotentAnswer): Promise<void> {
      return this.key.complete(fingerprint, answer)
    }
    release(fingerprint: string): Promise<void> {
      return this.key.release(fingerprint)
    }
    alarm(): Promise<void> {
      return this.key.sweep()
    }
  }
}
