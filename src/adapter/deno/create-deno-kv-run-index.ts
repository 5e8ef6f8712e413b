import type { RunIndex } from '../../runs/run-index.ts'

/** Where a principal's run index lives in Deno KV: `['toolroute', 'run-index', principal, createdAt, runId]`. */
export const denoKvRunIndexPrefix = ['toolroute', 'run-index'] as const

/** A `RunIndex` in Deno KV, beside the run store's keys; read newest first, with Deno KV's own cursor. */
export function createDenoKvRunIndex(kv: Deno.Kv): RunIndex {
  return {
    async add(principal, runId, createdAt) {
      await kv.set([...denoKvRunIndexPrefix, principal, createdAt, runId], true)
    },
    async list(principal, { cursor, limit }) {
      const entries = kv.list({ prefix: [...denoKvRunIndexPrefix, principal] }, { reverse: true, limit, ...(cursor ? { cursor } : {}) })
      const runIds = (await Array.fromAsync(entries)).map((entry) => String(entry.key.at(-1)))
      // Deno KV hands a cursor after every page; a full page may be the last, an empty next page says so.
      return { runIds, ...(runIds.length === limit && entries.cursor ? { nextCursor: entries.cursor } : {}) }
    },
  }
}
