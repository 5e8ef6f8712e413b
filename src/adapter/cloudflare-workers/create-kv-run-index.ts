import type { RunIndex } from '../../runs/run-index.ts'

/** Newest first in KV's ascending key order: milliseconds counted down from a far date, zero-padded. */
const newestFirst = (createdAt: string) => String(9_999_999_999_999 - Date.parse(createdAt)).padStart(13, '0')

/**
 * A `RunIndex` in Workers KV, beside `createKvRunStore`'s keys: `index:<principal, URI-encoded>:<time
 * counted down>:<runId>`, empty values, listed by prefix with KV's own cursor. Eventually
 * consistent like the rest of KV: a run started elsewhere may take a minute to be listed.
 */
export function createKvRunIndex(kv: KVNamespace, options: { expirationTtl?: number } = {}): RunIndex {
  const prefix = (principal: string) => `index:${encodeURIComponent(principal)}:`
  return {
    async add(principal, runId, createdAt) {
      await kv.put(`${prefix(principal)}${newestFirst(createdAt)}:${runId}`, '', options.expirationTtl ? { expirationTtl: options.expirationTtl } : {})
    },
    async list(principal, { cursor, limit }) {
      const page = await kv.list({ prefix: prefix(principal), limit, ...(cursor ? { cursor } : {}) })
      return {
        runIds: page.keys.map((key) => key.name.slice(key.name.lastIndexOf(':') + 1)),
        ...(!page.list_complete && page.cursor ? { nextCursor: page.cursor } : {}),
      }
    },
  }
}
