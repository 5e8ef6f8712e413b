import type { RunIndex, RunIndexEntry } from '../../runs/run-index.ts'
import { changesListing, runIndexEntryOf } from '../../runs/run-query.ts'
import type { DurableObjectRunWrites } from './durable-object-run-store.ts'

/** A principal's index over the runs namespace (`createDurableObjectRunIndex`): it keeps the highest `version` of a run's entries. */
export type DurableObjectRunIndex = RunIndex & { put(principal: string, entry: RunIndexEntry, version?: number): Promise<void> }
type Row = { version: number; principal: string; entry: string; due: number; tries: number }
const retryAt = (tries: number) => Date.now() + Math.min(1000 * 2 ** tries, 300_000)

/**
 * A run object's entry not yet in its principal's index (`index:<principal>`), in its SQLite: `index_outbox
 * (version AUTOINCREMENT, principal, entry, due, tries)`. `writes` (the store's hook) stores it in the run's
 * transaction and sets the alarm to its retry in that commit (an early alarm only sweeps early, which re-arms);
 * `send` hands the newest over, numbered (never reused: the index ignores a late older one), and deletes it
 * once the index has it; a failed or cut-off send is sent again from the alarm (`arm`), backing off.
 */
export function durableObjectIndexOutbox(storage: DurableObjectStorage, put: DurableObjectRunIndex['put']) {
  const sql = storage.sql
  sql.exec('CREATE TABLE IF NOT EXISTS index_outbox (version INTEGER PRIMARY KEY AUTOINCREMENT, principal TEXT NOT NULL, entry TEXT NOT NULL, due INTEGER NOT NULL, tries INTEGER NOT NULL DEFAULT 0)')
  const pending = () => sql.exec<Row>('SELECT * FROM index_outbox ORDER BY version DESC LIMIT 1').toArray()[0]
  const writes: DurableObjectRunWrites = (run, patch) => {
    if (run.principal === null || !changesListing(patch)) return
    sql.exec('DELETE FROM index_outbox')
    sql.exec('INSERT INTO index_outbox (principal, entry, due) VALUES (?, ?, ?)', run.principal, JSON.stringify(runIndexEntryOf(run)), retryAt(0))
    void storage.setAlarm(retryAt(0))
  }
  const dueAt = () => pending()?.due
  return {
    writes,
    dueAt,
    async send(): Promise<void> {
      for (let row = pending(); row; row = pending()) {
        if (!(await put(row.principal, JSON.parse(row.entry) as RunIndexEntry, row.version).then(() => true, () => false))) {
          return void sql.exec('UPDATE index_outbox SET tries = tries + 1, due = ? WHERE version = ?', retryAt(row.tries + 1), row.version)
        }
        sql.exec('DELETE FROM index_outbox WHERE version <= ?', row.version)
      }
    },
    /** After the alarm's other work re-armed it: no later than the next retry. */
    async arm() {
      const due = dueAt()
      if (due !== undefined && due < ((await storage.getAlarm()) ?? Infinity)) await storage.setAlarm(due)
    },
    clear: () => void sql.exec('DELETE FROM index_outbox'),
  }
}
