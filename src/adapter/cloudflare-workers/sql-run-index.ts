import type { RunIndexEntry, RunIndexPage, RunQuery } from '../../runs/run-index.ts'

export interface SqlRunIndex {
  /** `version`: the run object's numbering of its entries (`durableObjectIndexOutbox`); none counts as 0. */
  put(entry: RunIndexEntry, version?: number): void
  remove(runId: string): void
  list(query: RunQuery): RunIndexPage
}

/**
 * One principal's run index in a Durable Object's SQLite storage (the object named
 * `index:<principal>` of the runs namespace): `run_list (run_id, created_at, status, tool_id,
 * background, entry, version)`, read newest first by SQLite's own indexes, filters included, whatever the count.
 * The cursor is the last row of a page (`createdAt|runId`), so runs added meanwhile shift nothing.
 */
export function createSqlRunIndex(sql: SqlStorage): SqlRunIndex {
  // Made on the index's first use (`ToolRunObject` makes the index then), so a run's own object has no such table.
  sql.exec('CREATE TABLE IF NOT EXISTS run_list (run_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, status TEXT NOT NULL, tool_id TEXT NOT NULL, background INTEGER NOT NULL, entry TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0)')
  // A table made before entries were numbered gains the column (this fails, unharmed, on one that has it).
  try { sql.exec('ALTER TABLE run_list ADD COLUMN version INTEGER NOT NULL DEFAULT 0') } catch {}
  sql.exec('CREATE INDEX IF NOT EXISTS run_list_newest ON run_list (created_at DESC, run_id DESC)')
  sql.exec('CREATE INDEX IF NOT EXISTS run_list_status ON run_list (status, created_at DESC, run_id DESC)')
  sql.exec('CREATE INDEX IF NOT EXISTS run_list_tool ON run_list (tool_id, created_at DESC, run_id DESC)')
  return {
    put(entry, version = 0) {
      // A run's changes may arrive out of order: an older one (lower version, else earlier) never overwrites a newer.
      sql.exec(
        'INSERT INTO run_list (run_id, created_at, status, tool_id, background, entry, version) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET status = excluded.status, entry = excluded.entry, version = excluded.version WHERE (excluded.version, json_extract(excluded.entry, \'$.updatedAt\')) >= (run_list.version, json_extract(run_list.entry, \'$.updatedAt\'))',
        entry.runId,
        entry.createdAt,
        entry.status,
        entry.toolId,
        entry.background ? 1 : 0,
        JSON.stringify(entry),
        version,
      )
    },
    remove(runId) {
      sql.exec('DELETE FROM run_list WHERE run_id = ?', runId)
    },
    list({ statuses, toolId, background, cursor, limit }) {
      const where: string[] = []
      const values: (string | number)[] = []
      if (statuses !== undefined) where.push(`status IN (${statuses.map(() => '?').join(', ') || 'NULL'})`), values.push(...statuses)
      if (toolId !== undefined) where.push('tool_id = ?'), values.push(toolId)
      if (background !== undefined) where.push('background = ?'), values.push(background ? 1 : 0)
      const split = cursor?.indexOf('|') ?? -1
      if (cursor !== undefined && split > 0) {
        const [at, id] = [cursor.slice(0, split), cursor.slice(split + 1)]
        where.push('(created_at < ? OR (created_at = ? AND run_id < ?))'), values.push(at, at, id)
      }
      const rows = sql
        .exec<{ entry: string }>(`SELECT entry FROM run_list ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, run_id DESC LIMIT ?`, ...values, limit + 1)
        .toArray()
      const runs = rows.slice(0, limit).map((row) => JSON.parse(row.entry) as RunIndexEntry)
      const last = runs.at(-1)
      return { runs, ...(rows.length > limit && last ? { nextCursor: `${last.createdAt}|${last.runId}` } : {}) }
    },
  }
}
