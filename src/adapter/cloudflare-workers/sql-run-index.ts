import type { RunIndexPage } from '../../runs/run-index.ts'

export interface SqlRunIndex {
  add(runId: string, createdAt: string): void
  list(cursor: string | undefined, limit: number): RunIndexPage
}

/**
 * One principal's run index in a Durable Object's SQLite storage (the object named
 * `index:<principal>` of the runs namespace): `run_index (run_id, created_at)`, read newest first.
 * The cursor is the last row of a page (`createdAt|runId`), so runs added meanwhile shift nothing.
 */
export function createSqlRunIndex(sql: SqlStorage): SqlRunIndex {
  // Made on the index's first use (`ToolRunObject` makes the index then), so a run's own object has no such table.
  sql.exec('CREATE TABLE IF NOT EXISTS run_index (run_id TEXT PRIMARY KEY, created_at TEXT NOT NULL)')
  sql.exec('CREATE INDEX IF NOT EXISTS run_index_newest ON run_index (created_at DESC, run_id DESC)')
  return {
    add(runId, createdAt) {
      sql.exec('INSERT OR IGNORE INTO run_index (run_id, created_at) VALUES (?, ?)', runId, createdAt)
    },
    list(cursor, limit) {
      const [at, id] = cursor?.includes('|') ? [cursor.slice(0, cursor.indexOf('|')), cursor.slice(cursor.indexOf('|') + 1)] : []
      const where = at === undefined ? '' : 'WHERE created_at < ? OR (created_at = ? AND run_id < ?)'
      const rows = sql
        .exec<{ run_id: string; created_at: string }>(
          `SELECT run_id, created_at FROM run_index ${where} ORDER BY created_at DESC, run_id DESC LIMIT ?`,
          ...(at === undefined ? [] : [at, at, id]),
          limit + 1,
        )
        .toArray()
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return { runIds: page.map((row) => row.run_id), ...(rows.length > limit && last ? { nextCursor: `${last.created_at}|${last.run_id}` } : {}) }
    },
  }
}
