import { DurableObject } from 'cloudflare:workers'
import { defaultIdempotencyRetentionMs, type IdempotencyBegin, type IdempotentAnswer } from '../../idempotency/idempotency-store.ts'
import { createDurableObjectIdempotencyKey, type DurableObjectIdempotencyKey } from '../../store/durable-object/durable-object-idempotency-store.ts'
import { millisecondsOf } from './milliseconds-of.ts'

export interface IdempotencyObjectOptions {
  /**
   * How long a key is kept from its first request: the run retention (`retentionMs`, else the
   * `TOOLROUTE_RETENTION_MS` var, default 24 h), so a key never outlives the run an SSE repeat
   * replays.
   */
  retentionMs?: number
}

/**
 * The Durable Object class that holds one idempotency key (`idFromName` of principal and key):
 * its record and the alarm that forgets it. Thin: the compare-and-set lives in the store.
 */
export function createIdempotencyObject(options: IdempotencyObjectOptions = {}) {
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
