import { decodeIdempotencyRecord } from '../../idempotency/idempotency-record.ts'
import { beginFrom, isLapsed, type IdempotencyBegin, type IdempotencyClaim, type IdempotencyLease, type IdempotencyRecord, type IdempotentAnswer } from '../../idempotency/idempotency-store.ts'
import { settleInterrupted } from '../../idempotency/interrupted-call.ts'

/** One key's record inside its own Durable Object (the object is named by principal and key). */
export interface DurableObjectIdempotencyKey {
  begin(fingerprint: string, claim?: IdempotencyClaim): Promise<IdempotencyBegin>
  renew(fingerprint: string): Promise<boolean>
  complete(fingerprint: string, answer: IdempotentAnswer): Promise<void>
  release(fingerprint: string): Promise<void>
  /** The alarm: settles a lapsed pending key, looks again at a renewed lease's end, else drops the key (retention over). */
  sweep(): Promise<void>
}

/**
 * One idempotency key over a SQLite-backed Durable Object's storage. Layout: the table `idempotency (id
 * INTEGER PRIMARY KEY CHECK (id = 1), record TEXT)` holds the key's record as JSON; the one alarm is due at
 * a pending key's lease end, then at its retention's end (`retentionMs` after the first request).
 * `sql.exec` is synchronous and each method reads and writes before its first await, so each is a true
 * compare-and-set: of racing requests with one key only the first finds no record, and a renewal and the
 * alarm that finds the lease lapsed never both win.
 */
export function createDurableObjectIdempotencyKey(
  storage: DurableObjectStorage,
  options: { retentionMs: number; leaseMs: number; now?: () => number; onInterrupted?: (lease: IdempotencyLease) => Promise<void> },
): DurableObjectIdempotencyKey {
  const { sql } = storage
  const now = options.now ?? Date.now
  sql.exec('CREATE TABLE IF NOT EXISTS idempotency (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL)')
  const stored = (): IdempotencyRecord | undefined => {
    const row = sql.exec<{ record: string }>('SELECT record FROM idempotency WHERE id = 1').toArray()[0]
    return row ? decodeIdempotencyRecord(JSON.parse(row.record)) : undefined
  }
  const write = (record: IdempotencyRecord) => sql.exec('INSERT OR REPLACE INTO idempotency (id, record) VALUES (1, ?)', JSON.stringify(record))
  /** The record as it stands now: gone past retention (the alarm not run yet), settled once its lease lapsed. */
  const read = (): { record: IdempotencyRecord | undefined; interrupted?: IdempotencyLease } => {
    const record = stored()
    if (!record || record.createdAt + options.retentionMs <= now()) return { record: undefined }
    if (!isLapsed(record, now())) return { record }
    const settled = settleInterrupted(record, record.lease)
    write(settled)
    return { record: settled, interrupted: record.lease }
  }
  /** The run a lapsed key leaves is opened after the write that settled the key (and the alarm moved on to the retention). */
  const settled = async (interrupted: IdempotencyLease | undefined, record: IdempotencyRecord) => {
    if (!interrupted) return
    await storage.setAlarm(record.createdAt + options.retentionMs)
    await options.onInterrupted?.(interrupted).catch((error) => console.error(`toolroute: the run of interrupted call ${interrupted.runId} could not be stored`, error))
  }
  return {
    async begin(fingerprint, claim) {
      const { record, interrupted } = read()
      if (record) {
        await settled(interrupted, record)
        return beginFrom(record, fingerprint)
      }
      const createdAt = now()
      // Written before the first await: the claim is the compare-and-set.
      write({ state: 'pending', fingerprint, createdAt, ...(claim ? { lease: { ...claim, until: createdAt + options.leaseMs } } : {}) })
      await storage.setAlarm(createdAt + (claim ? options.leaseMs : options.retentionMs))
      return claim ? { state: 'new', renewEveryMs: options.leaseMs / 3 } : { state: 'new' }
    },
    async renew(fingerprint) {
      const { record, interrupted } = read()
      if (record?.state !== 'pending' || record.fingerprint !== fingerprint || !record.lease) {
        if (record) await settled(interrupted, record)
        return false
      }
      // The alarm stays where it is: due at the old lease's end, it finds the lease renewed and moves on.
      write({ ...record, lease: { ...record.lease, until: now() + options.leaseMs } })
      return true
    },
    async complete(fingerprint, answer) {
      const { record, interrupted } = read()
      if (record?.state === 'pending' && record.fingerprint === fingerprint) {
        write({ state: 'done', fingerprint, createdAt: record.createdAt, answer })
        if (record.lease) await storage.setAlarm(record.createdAt + options.retentionMs)
      } else if (record) await settled(interrupted, record)
    },
    async release(fingerprint) {
      const { record, interrupted } = read()
      if (record?.state === 'pending' && record.fingerprint === fingerprint) sql.exec('DELETE FROM idempotency')
      else if (record) await settled(interrupted, record)
    },
    async sweep() {
      const { record, interrupted } = read()
      if (record && interrupted) return settled(interrupted, record)
      // Only a leased pending key has an alarm before its retention's end: every other alarm is that end.
      if (record?.state !== 'pending' || !record.lease) return void sql.exec('DELETE FROM idempotency')
      await storage.setAlarm(record.lease.until)
    },
  }
}
