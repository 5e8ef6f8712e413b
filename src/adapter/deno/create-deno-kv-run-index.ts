import type { RunIndex, RunIndexEntry } from '../../runs/run-index.ts'
import { matchesRunQuery, scannedPerPage } from '../../runs/run-query.ts'

/** Where a principal's runs are listed in Deno KV: `['toolroute', 'runs-by-principal', principal, createdAt, runId]` → the entry. */
export const denoKvRunIndexPrefix = ['toolroute', 'runs-by-principal'] as const

/**
 * A `RunIndex` in Deno KV, beside the run store's keys, read newest first. Filters are applied as it
 * reads, at most `scannedPerPage` entries a page; the cursor is the last entry read (`createdAt|runId`).
 */
export function createDenoKvRunIndex(kv: Deno.Kv): RunIndex {
  const key = (principal: string, entry: Pick<RunIndexEntry, 'createdAt' | 'runId'>) => [...denoKvRunIndexPrefix, principal, entry.createdAt, entry.runId]
  return {
    async put(principal, entry) {
      // A run's changes may arrive out of order: an older one never overwrites a newer.
      for (let tries = 0; tries < 10; tries++) {
        const current = await kv.get<RunIndexEntry>(key(principal, entry))
        if (current.value && current.value.updatedAt > entry.updatedAt) return
        if ((await kv.atomic().check(current).set(key(principal, entry), entry).commit()).ok) return
      }
    },
    async remove(principal, entry) {
      await kv.delete(key(principal, entry))
    },
    async list(principal, query) {
      const split = query.cursor?.indexOf('|') ?? -1
      const prefix = [...denoKvRunIndexPrefix, principal]
      const selector = query.cursor !== undefined && split > 0 ? { prefix, end: [...prefix, query.cursor.slice(0, split), query.cursor.slice(split + 1)] } : { prefix }
      const runs: RunIndexEntry[] = []
      let last: RunIndexEntry | undefined
      let read = 0
      for await (const item of kv.list<RunIndexEntry>(selector, { reverse: true, limit: scannedPerPage + 1, batchSize: Math.min(scannedPerPage, Math.max(query.limit * 2, 20)) })) {
        if (runs.length === query.limit || read === scannedPerPage) return { runs, nextCursor: `${last!.createdAt}|${last!.runId}` }
        read++
        last = item.value
        if (matchesRunQuery(item.value, query)) runs.push(item.value)
      }
      return { runs }
    },
  }
}
