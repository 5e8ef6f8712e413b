import { DurableObject } from 'cloudflare:workers'
import { defaultIdempotencyRetentionMs, type IdempotencyBegin, type IdempotentAnswer } from '../../idempotency/idempotency-store.ts'
import { createDurableObjectIdempotencyKey, type DurableObjectIdempotencyKey } from './durable-object-idempotency-key.ts'
import { millisecondsOf } from './milliseconds-of.ts'

export interface IdempotencyObjectOptions {
  /**
   * How long a key is kept from its first request: the run retention (`retentionMs`, else the
   * `TOOLROUTE_RETENTION_MS` var, default 24 h), so a key never outlives the run an SSE repeat
   * replays.
   */
  retentionMs?: number
}

/** An idempotency key's Durable Object: the RPC methods its store calls, and its alarm. */
export interface IdempotencyObject extends DurableObject {
  readonly key: DurableObjectIdempotencyKey
  begin(fingerprint: string): Promise<IdempotencyBegin>
  complete(fingerprint: string, answer: IdempotentAnswer): void
  release(fingerprint: string): void
  alarm(): void
}

/**
 * The Durable Object class that holds one idempotency key (`idFromName` of principal and key):
 * its record and the alarm that forgets it. Thin: the compare-and-set lives in the store.
 */
// The return type is spelled out, as for the run object: the package's .d.ts cannot carry an
// anonymous class extending DurableObject (its ctx and env are protected).
export function createIdempotencyObject(options: IdempotencyObjectOptions = {}): new (ctx: DurableObjectState, env: unknown) => IdempotencyObject {
  return class IdempotencyObject extends DurableObject {
    readonly key: DurableObjectIdempotencyKey

    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env as never)
      const vars = (env ?? {}) as Record<string, unknown>
      const retentionMs = millisecondsOf(options.retentionMs, vars.TOOLROUTE_RETENTION_MS) ?? defaultIdempotencyRetentionMs
      this.key = createDurableObjectIdempotencyKey(ctx.storage, { retentionMs })
    }

    begin(fingerprint: string): Promise<IdempotencyBegin> {
      return this.key.begin(fingerprint)
    }
    complete(fingerprint: string, answer: IdempotentAnswer): void {
      this.key.complete(fingerprint, answer)
    }
    release(fingerprint: string): void {
      this.key.release(fingerprint)
    }

    alarm(): void {
      this.key.forget()
    }
  }
}
