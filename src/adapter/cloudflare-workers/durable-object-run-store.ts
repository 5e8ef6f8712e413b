import type { SequencedEvent, ToolEvent } from '../../protocol/tool-event.ts'
import { decodeRunRecord, type RunRecord } from '../../runs/run-record.ts'
import type { RunStore } from '../../runs/run-store.ts'
import { checkRunLimits, checkStoredValue, jsonBytes, storedValueLimits, type RunLimits } from '../../runs/run-limits.ts'

/**
 * A run store over one SQLite-backed Durable Object's storage: one object holds one run. Tables:
 * - `run (id TEXT PRIMARY KEY, record TEXT)`: the run record as JSON, one row.
 * - `event (seq INTEGER PRIMARY KEY, body TEXT)`: the event log, `seq` from 1, as JSON; no run column,
 *   so creating a second run fails and another run id reads as absent.
 *
 * `sql.exec` is synchronous and the object runs one request's code at a time, so a read-check-write
 * with no `await` inside `transactionSync` is a true compare-and-set. The log's size (what `RunLimits`
 * count) is summed once per object instance, then kept in memory: only this object writes it.
 * `writes` (the run index's outbox) run in the transaction that stores a run's record: both commit or neither.
 */
export function createDurableObjectRunStore(storage: DurableObjectStorage, ...writes: DurableObjectRunWrites[]): RunStore {
  const sql = storage.sql
  sql.exec('CREATE TABLE IF NOT EXISTS run (id TEXT PRIMARY KEY, record TEXT NOT NULL)')
  sql.exec('CREATE TABLE IF NOT EXISTS event (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)')

  const read = (runId: string): RunRecord | undefined => {
    const row = sql.exec<{ record: string }>('SELECT record FROM run WHERE id = ?', runId).toArray()[0]
    return row ? decodeRunRecord(JSON.parse(row.record)) : undefined
  }
  let size: { events: number; bytes: number } | undefined
  const sizeOf = (): { events: number; bytes: number } => {
    if (size) return size
    const row = sql.exec<{ events: number | null; bytes: number | null }>('SELECT MAX(seq) AS events, SUM(length(CAST(body AS BLOB))) AS bytes FROM event').one()
    return (size = { events: row.events ?? 0, bytes: row.bytes ?? 0 })
  }
  const insert = (events: readonly ToolEvent[], limits?: RunLimits): SequencedEvent[] => {
    const current = sizeOf()
    const bodies = events.map((event) => JSON.stringify(event))
    const bytes = bodies.reduce((sum, body) => sum + jsonBytes(body), 0)
    checkRunLimits(limits, current, events.length, bytes)
    for (const body of bodies) checkStoredValue(body, storedValueLimits.durableObjectRow)
    let seq = current.events
    const inserted = events.map((event, index) => {
      seq += 1
      sql.exec('INSERT INTO event (seq, body) VALUES (?, ?)', seq, bodies[index]!)
      return { seq, event }
    })
    size = { events: seq, bytes: current.bytes + bytes }
    return inserted
  }
  const write = (run: RunRecord, patch?: Partial<RunRecord>) => {
    const record = JSON.stringify(run)
    checkStoredValue(record, storedValueLimits.durableObjectRow)
    sql.exec('INSERT OR REPLACE INTO run (id, record) VALUES (?, ?)', run.runId, record)
    for (const hook of writes) hook(run, patch)
  }

  return {
    exactlyOnce: true,
    async create(run, events) {
      return storage.transactionSync(() => {
        const held = storedRunId(storage)
        if (held !== undefined) throw new Error(held === run.runId ? `run ${run.runId} exists` : `this object already holds run ${held}`)
        write(run)
        return insert(events)
      })
    },
    get: async (runId) => read(runId),
    async transition(runId, from, patch, events = [], when) {
      return storage.transactionSync(() => {
        const run = read(runId)
        if (!run) return { ok: false, reason: 'not-found' }
        if (!from.includes(run.status) || (when && !when(run))) return { ok: false, reason: 'conflict', run }
        const next = JSON.parse(JSON.stringify({ ...run, ...patch })) as RunRecord
        write(next, patch)
        return { ok: true, run: next, events: insert(events) }
      })
    },
    async append(runId, events, limits) {
      return storage.transactionSync(() => {
        // The id is enough: decoding the whole record on every event would cost more than the insert.
        if (storedRunId(storage) !== runId) throw new Error(`run ${runId} does not exist`)
        return insert(events, limits)
      })
    },
    async events(runId, after, limit) {
      if (storedRunId(storage) !== runId) return []
      // SQLite reads `LIMIT -1` as no limit.
      return sql
        .exec<{ seq: number; body: string }>('SELECT seq, body FROM event WHERE seq > ? ORDER BY seq LIMIT ?', after, limit ?? -1)
        .toArray()
        .map((row) => ({ seq: row.seq, event: JSON.parse(row.body) as ToolEvent }))
    },
    async size(runId) {
      return storedRunId(storage) === runId ? { ...sizeOf() } : { events: 0, bytes: 0 }
    },
    async delete(runId) {
      if (storedRunId(storage) !== runId) return
      storage.transactionSync(() => {
        sql.exec('DELETE FROM event')
        sql.exec('DELETE FROM run')
      })
      size = undefined
      await storage.deleteAlarm()
    },
  }
}

/** What a feature adds to the transaction storing a run's record, given it and the transition's patch (none: created). */
export type DurableObjectRunWrites = (run: RunRecord, patch?: Partial<RunRecord>) => void

/** The id of the one run an object holds, if any (its alarm needs it), once its store made the tables. */
export function storedRunId(storage: DurableObjectStorage): string | undefined {
  return storage.sql.exec<{ id: string }>('SELECT id FROM run LIMIT 1').toArray()[0]?.id
}
