// The IdempotencyStore contract on Deno KV, then a keyed call through the Deno app: a repeat
// replays, and two handles on one database (two processes) claim a key once.
import assert from 'node:assert/strict'
import { createTool } from 'toolroute'
import { createDenoKvIdempotencyStore, createDenoToolApp } from 'toolroute/deno'
import { z } from 'zod'
import { defineIdempotencyStoreContract } from '../shared/idempotency-store-contract.ts'

const memoryKv = await Deno.openKv(':memory:')
const fileDir = await Deno.makeTempDir({ prefix: 'toolroute-idem-' })
const fileKv = await Deno.openKv(`${fileDir}/keys.sqlite3`)
const otherHandle = await Deno.openKv(`${fileDir}/keys.sqlite3`)
globalThis.addEventListener('unload', () => {
  memoryKv.close()
  fileKv.close()
  otherHandle.close()
  Deno.removeSync(fileDir, { recursive: true })
})

let now = Date.now()
defineIdempotencyStoreContract('Deno KV (memory)', () => createDenoKvIdempotencyStore(memoryKv, { now: () => now, retentionMs: 60_000, leaseMs: 3_000 }), { test: (name, fn) => Deno.test(name, fn) }, {
  expire: () => void (now += 60_000),
  lapse: () => void (now += 3_000),
})
defineIdempotencyStoreContract('Deno KV (file)', () => createDenoKvIdempotencyStore(fileKv), { test: (name, fn) => Deno.test(name, fn) })

Deno.test('Deno KV: two handles on one database racing for one key: one claims it', async () => {
  const scope = { principal: 'alice', key: crypto.randomUUID() }
  const stores = [createDenoKvIdempotencyStore(fileKv), createDenoKvIdempotencyStore(otherHandle)]
  const results = await Promise.all(Array.from({ length: 20 }, (_, index) => stores[index % 2]!.begin(scope, 'f1')))
  assert.equal(results.filter((result) => result.state === 'new').length, 1)
})

Deno.test('Deno app: a keyed call executes once; its repeat replays with idempotent-replayed', async () => {
  let executions = 0
  const counted = createTool({
    id: 'counted',
    description: 'Counts',
    inputSchema: z.object({ n: z.number() }),
    execute: async ({ n }) => ({ n, executions: ++executions }),
  })
  const kv = await Deno.openKv(':memory:')
  try {
    const { app } = await createDenoToolApp({ tools: [counted], kv, queue: false })
    const send = () => app.request('/tools/counted', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'k1' }, body: '{"n":1}' })
    const first = await send()
    const firstText = await first.text()
    const again = await send()
    assert.equal(again.headers.get('idempotent-replayed'), 'true')
    assert.equal(await again.text(), firstText)
    assert.equal(executions, 1)
    const other = await app.request('/tools/counted', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'k1' }, body: '{"n":2}' })
    assert.equal(other.status, 422)
  } finally {
    kv.close()
  }
})
