import type { RunIndexEntry } from '../../runs/run-index.ts'
import { changesListing, runIndexEntryOf } from '../../runs/run-query.ts'
import type { DurableObjectRunWrites } from './durable-object-run-store.ts'

type Row = { version: number; principal: string; entry: string; due: number; tries: number }
/** Sends a run's entry to its principal's index (`indexPut` on `index:<principal>`), which keeps the highest `version`. */
type IndexPut = (principal: string, entry: RunIndexEntry, version: number) => Promise<void>
const retryMs = { first: 1000, max: 5 * 60_000 }

/**
 * A run object's index entry not yet in its principal's index, an outbox in the run object's SQLite:
 * `index_outbox (version INTEGER PRIMARY KEY AUTOINCREMENT, principal, entry, due, tries)`. `writes` (the
 * run store's hook) stores it in the transaction that stores the run's record, and sets the object's alarm
 * to its retry time in that commit (an earlier alarm only sweeps early, which re-arms); `send` hands the
 * newest over, numbered (never reused, so a late older one is ignored), and deletes it once the index has
 * it; a failed or cut-off send is sent again from the object's alarm (`arm`), backing off.
 */
export function durableObjectIndexOutbox(storage: DurableObjectStorage, put: IndexPut) {
  const sql = storage.sql
  sql.exec('CREATE TABLE IF NOT EXISTS index_outbox (version INTEGER PRIMARY KEY AUTOINCREMENT, principal TEXT NOT NULL, entry TEXT NOT NULL, due INTEGER NOT NULL, tries INTEGER NOT NULL DEFAULT 0)')
  const pending = () => sql.exec<Row>('SELECT * FROM index_outbox ORDER BY version DESC LIMIT 1').toArray()[0]
  const dueAt = () => pending()?.due
  const writes: DurableObjectRunWrites = (run, patch) => {
    if (run.principal === null || !changesListing(patch)) return
    const due = Date.now() + retryMs.first
    sql.exec('DELETE FROM index_outbox')
    sql.exec('INSERT INTO index_outbox (principal, entry, due) VALUES (?, ?, ?)', run.principal, JSON.stringify(runIndexEntryOf(run)), due)
    void storage.setAlarm(due)
  }
  return {
    writes,
    dueAt,
    async send(): Promise<void> {
      for (let row = pending(); row; row = pending()) {
        try {
          await put(row.principal, JSON.parse(row.entry) as RunIndexEntry, row.version)
        } catch {
          const due = Date.now() + Math.min(retryMs.first * 2 ** (row.tries + 1), retryMs.max)
          return void sql.exec('UPDATE index_outbox SET tries = tries + 1, due = ? WHERE version = ?', due, row.version)
        }
        sql.exec('DELETE FROM index_outbox WHERE version <= ?', row.version)
      }
    },
    /** After the alarm's other work re-armed it: no later than the next retry. */
    async arm(): Promise<void> {
      const due = dueAt()
      if (due !== undefined && due < ((await storage.getAlarm()) ?? Infinity)) await storage.setAlarm(due)
    },
    clear: () => void sql.exec('DELETE FROM index_outbox'),
  }
}
