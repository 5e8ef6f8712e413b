import type { RunIndex, RunIndexEntry } from '../../runs/run-index.ts'
import { matchesRunQuery, scannedPerPage } from '../../runs/run-query.ts'

/** Newest first in KV's ascending key order: milliseconds counted down from a far date, zero-padded. */
const newestFirst = (createdAt: string) => String(9_999_999_999_999 - Date.parse(createdAt)).padStart(13, '0')

/**
 * A `RunIndex` in Workers KV, beside `createKvRunStore`'s keys: `runs:<principal, URI-encoded>:<time
 * counted down>:<runId>`, the entry in the key's metadata, so one `list` reads a page of entries.
 * Filters are applied as it reads, at most `scannedPerPage` entries (one KV list) a page; the cursor is
 * KV's own plus the last key read. Eventually consistent like the
 * rest of KV: a run started or changed elsewhere may take a minute to be listed as it is.
 */
export function createKvRunIndex(kv: KVNamespace, options: { expirationTtl?: number } = {}): RunIndex {
  const prefix = (principal: string) => `runs:${encodeURIComponent(principal)}:`
  const key = (principal: string, entry: Pick<RunIndexEntry, 'createdAt' | 'runId'>) => `${prefix(principal)}${newestFirst(entry.createdAt)}:${entry.runId}`
  return {
    async put(principal, entry) {
      await kv.put(key(principal, entry), '', { metadata: entry, ...(options.expirationTtl ? { expirationTtl: options.expirationTtl } : {}) })
    },
    async remove(principal, entry) {
      await kv.delete(key(principal, entry))
    },
    async list(principal, query) {
      // `<KV cursor>~<the last key read, less the prefix>`: the KV page is read again from its start and
      // what was read skipped by key, so runs put meanwhile shift nothing. The first page has no KV cursor.
      const split = query.cursor?.lastIndexOf('~') ?? -1
      const [from, after] = query.cursor !== undefined && split >= 0 ? [query.cursor.slice(0, split), prefix(principal) + query.cursor.slice(split + 1)] : ['', '']
      const page = await kv.list<RunIndexEntry>({ prefix: prefix(principal), limit: scannedPerPage, ...(from ? { cursor: from } : {}) })
      const runs: RunIndexEntry[] = []
      let last = after
      for (const { name, metadata } of page.keys) {
        if (name <= after) continue
        if (runs.length === query.limit) return { runs, nextCursor: `${from}~${last.slice(prefix(principal).length)}` }
        last = name
        if (metadata && matchesRunQuery(metadata, query)) runs.push(metadata)
      }
      return { runs, ...(!page.list_complete && page.cursor ? { nextCursor: `${page.cursor}~` } : {}) }
    },
  }
}
