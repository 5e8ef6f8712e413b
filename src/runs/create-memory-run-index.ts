import type { RunIndex, RunIndexEntry } from './run-index.ts'
import { matchesRunQuery } from './run-query.ts'

/** Newest first, then by run id: the order every index lists in; its cursor is a page's last `createdAt|runId`. */
const keyOf = (entry: Pick<RunIndexEntry, 'createdAt' | 'runId'>) => `${entry.createdAt}|${entry.runId}`

/** A `RunIndex` in memory, a sorted list per principal, so runs added meanwhile shift no page. */
export function createMemoryRunIndex(): RunIndex {
  const byPrincipal = new Map<string, { keys: string[]; entries: Map<string, RunIndexEntry> }>()
  const of = (principal: string) => byPrincipal.get(principal) ?? byPrincipal.set(principal, { keys: [], entries: new Map() }).get(principal)!
  return {
    async put(principal, entry) {
      const { keys, entries } = of(principal)
      const key = keyOf(entry)
      if (!entries.has(key)) {
        // Newest first; ISO times of one clock sort as strings.
        let at = 0
        while (at < keys.length && keys[at]! > key) at++
        keys.splice(at, 0, key)
      }
      entries.set(key, entry)
    },
    async remove(principal, entry) {
      const { keys, entries } = of(principal)
      if (entries.delete(keyOf(entry))) keys.splice(keys.indexOf(keyOf(entry)), 1)
    },
    async list(principal, query) {
      const { keys, entries } = of(principal)
      const runs: RunIndexEntry[] = []
      let at = query.cursor === undefined ? 0 : keys.findIndex((key) => key < query.cursor!)
      if (at < 0) return { runs }
      for (; at < keys.length && runs.length < query.limit; at++) {
        const entry = entries.get(keys[at]!)!
        if (matchesRunQuery(entry, query)) runs.push(entry)
      }
      const more = runs.length === query.limit && keys.slice(at).some((key) => matchesRunQuery(entries.get(key)!, query))
      return { runs, ...(more ? { nextCursor: keyOf(runs.at(-1)!) } : {}) }
    },
  }
}
