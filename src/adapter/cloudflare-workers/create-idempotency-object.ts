import { DurableObject } from 'cloudflare:workers'
import { decodeIdempotencyRecord } from '../../idempotency/idempotency-record.ts'
import { beginFrom, defaultIdempotencyRetentionMs } from '../../idempotency/idempotency-store.ts'
import type { IdempotencyBegin, IdempotencyClaim, IdempotencyLease, IdempotencyRecord, IdempotentAnswer } from '../../idempotency/idempotency-store.ts'
import { liveRecord, type LiveRecord } from '../../idempotency/interrupted-call.ts'
import { defaultLeaseMs } from '../../runs/default-lease-ms.ts'
import { checkStoredValue, storedValueLimits } from '../../runs/run-limits.ts'
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
export interface IdempotencyObject extends DurableObject {
  begin(fingerprint: string, claim?: IdempotencyClaim): Promise<IdempotencyBegin>
  renew(fingerprint: string): Promise<boolean>
  complete(fingerprint: string, answer: IdempotentAnswer): Promise<void>
  release(fingerprint: string): Promise<void>
  /** Settles a lapsed pending key, looks again at a renewed lease's end, else drops the key (retention over). */
  alarm(): Promise<void>
}

/**
 * The Durable Object class that holds one idempotency key (`idFromName` of principal and key). Layout: the
 * table `idempotency (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT)` holds the key's record as JSON;
 * the one alarm is due at a pending key's lease end, then at its retention's end (from the first request).
 * `sql.exec` is synchronous and each method reads and writes before its first await, so each is a true
 * compare-and-set: of racing requests with one key only the first finds no record, and a renewal and the
 * alarm that finds the lease lapsed never both win.
 */
// The return type is spelled out: the .d.ts cannot carry an anonymous class extending DurableObject.
export function createIdempotencyObject(options: IdempotencyObjectOptions = {}): new (ctx: DurableObjectState, env: unknown) => IdempotencyObject {
  return class IdempotencyObject extends DurableObject {
    readonly #retentionMs = millisecondsOf(options.retentionMs, this.env, 'TOOLROUTE_RETENTION_MS') ?? defaultIdempotencyRetentionMs
    readonly #leaseMs = millisecondsOf(options.leaseMs, this.env, 'TOOLROUTE_LEASE_MS') ?? defaultLeaseMs

    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env as never)
      ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS idempotency (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL)')
    }

    #write(record: IdempotencyRecord) {
      const text = JSON.stringify(record)
      checkStoredValue(text, storedValueLimits.durableObjectRow)
      this.ctx.storage.sql.exec('INSERT OR REPLACE INTO idempotency (id, record) VALUES (1, ?)', text)
    }
    /** The record as it stands now: gone past retention (the alarm not run yet), settled once its lease lapsed. */
    #read(): LiveRecord {
      const row = this.ctx.storage.sql.exec<{ record: string }>('SELECT record FROM idempotency WHERE id = 1').toArray()[0]
      const live = liveRecord(row ? decodeIdempotencyRecord(JSON.parse(row.record)) : undefined, Date.now(), this.#retentionMs)
      if (live.interrupted) this.#write(live.record)
      return live
    }
    /** The run a lapsed key leaves is opened after the write that settled the key (and the alarm moved on to the retention). */
    async #settled(interrupted: IdempotencyLease | undefined, record: IdempotencyRecord) {
      if (!interrupted) return
      await this.ctx.storage.setAlarm(record.createdAt + this.#retentionMs)
      const failed = (error: unknown) => console.error(`toolroute: the run of interrupted call ${interrupted.runId} could not be stored`, error)
      await options.onInterrupted?.(this.env, interrupted).catch(failed)
    }

    async begin(fingerprint: string, claim?: IdempotencyClaim): Promise<IdempotencyBegin> {
      const { record, interrupted } = this.#read()
      if (record) {
        await this.#settled(interrupted, record)
        return beginFrom(record, fingerprint)
      }
      const createdAt = Date.now()
      // Written before the first await: the claim is the compare-and-set.
      this.#write({ state: 'pending', fingerprint, createdAt, ...(claim ? { lease: { ...claim, until: createdAt + this.#leaseMs } } : {}) })
      await this.ctx.storage.setAlarm(createdAt + (claim ? this.#leaseMs : this.#retentionMs))
      return claim ? { state: 'new', renewEveryMs: this.#leaseMs / 3 } : { state: 'new' }
    }
    async renew(fingerprint: string): Promise<boolean> {
      const { record, interrupted } = this.#read()
      if (record?.state !== 'pending' || record.fingerprint !== fingerprint || !record.lease) {
        if (record) await this.#settled(interrupted, record)
        return false
      }
      // The alarm stays where it is: due at the old lease's end, it finds the lease renewed and moves on.
      this.#write({ ...record, lease: { ...record.lease, until: Date.now() + this.#leaseMs } })
      return true
    }
    async complete(fingerprint: string, answer: IdempotentAnswer): Promise<void> {
      const { record, interrupted } = this.#read()
      if (record?.state === 'pending' && record.fingerprint === fingerprint) {
        this.#write({ state: 'done', fingerprint, createdAt: record.createdAt, answer })
        if (record.lease) await this.ctx.storage.setAlarm(record.createdAt + this.#retentionMs)
      } else if (record) await this.#settled(interrupted, record)
    }
    async release(fingerprint: string): Promise<void> {
      const { record, interrupted } = this.#read()
      if (record?.state === 'pending' && record.fingerprint === fingerprint) this.ctx.storage.sql.exec('DELETE FROM idempotency')
      else if (record) await this.#settled(interrupted, record)
    }
    async alarm(): Promise<void> {
      const { record, interrupted } = this.#read()
      if (record && interrupted) return this.#settled(interrupted, record)
      // Only a leased pending key has an alarm before its retention's end: every other alarm is that end.
      if (record?.state !== 'pending' || !record.lease) return void this.ctx.storage.sql.exec('DELETE FROM idempotency')
      await this.ctx.storage.setAlarm(record.lease.until)
    }
  }
}
