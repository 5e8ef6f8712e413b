import type { RunIndex } from './run-index.ts'

/** A `RunIndex` in memory. The cursor is a page's last `createdAt|runId`, so runs added meanwhile shift no page. */
export function createMemoryRunIndex(): RunIndex {
  const byPrincipal = new Map<string, string[]>()
  return {
    async add(principal, runId, createdAt) {
      const keys = byPrincipal.get(principal) ?? []
      const key = `${createdAt}|${runId}`
      if (!keys.includes(key)) keys.push(key)
      // Newest first; ISO times of one clock sort as strings.
      keys.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
      byPrincipal.set(principal, keys)
    },
    async list(principal, { cursor, limit }) {
      const keys = byPrincipal.get(principal) ?? []
      const start = cursor === undefined ? 0 : keys.findIndex((key) => key < cursor)
      const page = start < 0 ? [] : keys.slice(start, start + limit)
      const more = start >= 0 && start + limit < keys.length
      return { runIds: page.map((key) => key.slice(key.indexOf('|') + 1)), ...(more ? { nextCursor: page.at(-1)! } : {}) }
    },
  }
}
