// Listing runs (GET /runs, SPEC §16) at 10,000 runs of one principal: what one page costs in the run
// index itself, for the Durable Object's (its SQLite table and indexes, here on Node's own SQLite, the
// engine a Durable Object's storage runs) and memory's. Pages of 20: the first, one 250 pages deep (its
// cursor), the waiting runs (1 in 100), one tool (1 in 4), a tool's waiting runs. Medians of 200 reads.
// The RPC to the principal's index object (one per page) and Workers KV / Deno KV round trips come on top:
// those two read at most 1,000 entries (one KV list) a page, filtering as they read.
//
// node --experimental-strip-types bench/run.mjs runs-list
import { DatabaseSync } from 'node:sqlite'
import { performance } from 'node:perf_hooks'
import { createSqlRunIndex } from '../src/adapter/cloudflare-workers/sql-run-index.ts'
import { createMemoryRunIndex } from '../src/runs/create-memory-run-index.ts'
import { median } from './measure.mjs'

const count = 10_000
const entries = Array.from({ length: count }, (_, n) => {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString()
  return { runId: crypto.randomUUID(), toolId: `tool-${n % 4}`, toolCallId: `call_${n}`, status: n % 100 === 0 ? 'approval-required' : 'completed', createdAt: at, updatedAt: at }
})

/** `SqlStorage.exec` over node:sqlite: the same statements a Durable Object runs. */
function sqlStorage() {
  const db = new DatabaseSync(':memory:')
  return {
    exec: (query, ...params) => {
      const rows = /^\s*select/i.test(query) ? db.prepare(query).all(...params) : (db.prepare(query).run(...params), [])
      return { toArray: () => rows }
    },
  }
}

async function time(read) {
  const samples = []
  for (let i = 0; i < 200; i++) {
    const start = performance.now()
    await read()
    samples.push(performance.now() - start)
  }
  return `${median(samples).toFixed(3)} ms`
}

const sql = createSqlRunIndex(sqlStorage())
const memory = createMemoryRunIndex()
for (const entry of entries) {
  sql.put(entry)
  await memory.put('p', entry)
}
const list = { sql: async (query) => sql.list(query), memory: (query) => memory.list('p', query) }
const rows = []
for (const [name, read] of Object.entries(list)) {
  let deep
  let page = await read({ limit: 20 })
  for (let i = 0; i < 250; i++) page = await read({ limit: 20, cursor: (deep = page.nextCursor) })
  rows.push([
    name,
    await time(() => read({ limit: 20 })),
    await time(() => read({ limit: 20, cursor: deep })),
    await time(() => read({ limit: 20, statuses: ['approval-required', 'suspended'] })),
    await time(() => read({ limit: 20, toolId: 'tool-1' })),
    await time(() => read({ limit: 20, toolId: 'tool-1', statuses: ['approval-required'] })),
  ])
}
console.log(`${count} runs of one principal, pages of 20 (median of 200 reads)`)
console.log('| index | first page | page 251 (cursor) | waiting (1%) | one tool (25%) | a tool\'s waiting |')
console.log('|---|---|---|---|---|---|')
for (const row of rows) console.log(`| ${row.join(' | ')} |`)
