import type { RunIndex, RunIndexEntry } from '../../runs/run-index.ts'
import { changesListing, matchesRunQuery, runIndexEntryOf, scannedPerPage } from '../../runs/run-query.ts'
import type { DenoKvRunWrites } from './deno-kv-run-store.ts'

/** Where a principal's runs are listed in Deno KV: `['toolroute', 'runs-by-principal', principal, createdAt, runId]` → the entry. */
export const denoKvRunIndexPrefix = ['toolroute', 'runs-by-principal'] as const

/**
 * A `RunIndex` in Deno KV, beside the run store's keys, read newest first. Filters are applied as it
 * reads, at most `scannedPerPage` entries a page; the cursor is the last entry read (`createdAt|runId`).
 * The app writes each run's entry with `writes` (the run store's hook) in the commit that stores its record
 * (`changesListing`): listed as stored whenever the process dies. That commit is a compare-and-set, so the newest entry lands last and `put` (the contract's, no app write) need not check.
 */
export function createDenoKvRunIndex(kv: Deno.Kv): RunIndex & { writes: DenoKvRunWrites } {
  const key = (principal: string, entry: Pick<RunIndexEntry, 'createdAt' | 'runId'>) => [...denoKvRunIndexPrefix, principal, entry.createdAt, entry.runId]
  return {
    writes(run, operation, patch) {
      if (run.principal !== null && changesListing(patch)) operation.set(key(run.principal, run), runIndexEntryOf(run))
    },
    async put(principal, entry) {
      await kv.set(key(principal, entry), entry)
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
