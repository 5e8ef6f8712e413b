import { decodeIdempotencyRecord } from '../../idempotency/idempotency-record.ts'
import { beginFrom, type IdempotencyBegin, type IdempotencyRecord, type IdempotentAnswer } from '../../idempotency/idempotency-store.ts'

/** One key's record inside its own Durable Object (the object is named by principal and key). */
export interface DurableObjectIdempotencyKey {
  begin(fingerprint: string): Promise<IdempotencyBegin>
  complete(fingerprint: string, answer: IdempotentAnswer): void
  release(fingerprint: string): void
  /** Drops the key, whatever its state: the retention is over (the alarm). */
  forget(): void
}

/**
 * One idempotency key over a SQLite-backed Durable Object's storage.
 *
 * Key layout (SQLite table of the object): `idempotency (id INTEGER PRIMARY KEY CHECK (id = 1),
 * record TEXT)`: the one key's record as JSON. The alarm deletes it `retentionMs` after the first
 * request.
 *
 * `sql.exec` is synchronous and `begin` reads and writes before its first await, so it is a true
 * compare-and-set: of 50 racing requests with one key, only the first finds no record.
 */
export function createDurableObjectIdempotencyKey(
  storage: DurableObjectStorage,
  options: { retentionMs: number; now?: () => number },
): DurableObjectIdempotencyKey {
  const { sql } = storage
  const now = options.now ?? Date.now
  sql.exec('CREATE TABLE IF NOT EXISTS idempotency (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL)')
  const read = (): IdempotencyRecord | undefined => {
    const row = sql.exec<{ record: string }>('SELECT record FROM idempotency WHERE id = 1').toArray()[0]
    if (!row) return undefined
    const record = decodeIdempotencyRecord(JSON.parse(row.record))
    // Past retention and the alarm not run yet: gone all the same.
    return record.createdAt + options.retentionMs <= now() ? undefined : record
  }
  const write = (record: IdempotencyRecord) => sql.exec('INSERT OR REPLACE INTO idempotency (id, record) VALUES (1, ?)', JSON.stringify(record))
  return {
    async begin(fingerprint) {
      const record = read()
      if (record) return beginFrom(record, fingerprint)
      const createdAt = now()
      // Written before the first await: the claim is the compare-and-set.
      write({ state: 'pending', fingerprint, createdAt })
      await storage.setAlarm(createdAt + options.retentionMs)
      return { state: 'new' }
    },
    complete(fingerprint, answer) {
      const record = read()
      if (record?.state === 'pending' && record.fingerprint === fingerprint) write({ state: 'done', fingerprint, createdAt: record.createdAt, answer })
    },
    release(fingerprint) {
      const record = read()
      if (record?.state === 'pending' && record.fingerprint === fingerprint) sql.exec('DELETE FROM idempotency')
    },
    forget() {
      sql.exec('DELETE FROM idempotency')
    },
  }
}
