// The shared RunStore contract on Deno KV (in memory, and on a SQLite file as `deno task dev`
// keeps it), then what only Deno KV has to get right: values past its 64 KiB limit, and
// exactly-once transitions across two handles on one database (two processes).
import assert from 'node:assert/strict'
import { createDenoKvRunStore } from 'toolroute/deno'
import type { ToolEvent } from 'toolroute'
import type { RunRecord } from 'toolroute/server'
import { defineRunStoreContract } from '../shared/run-store-contract.ts'
import { defineRunIndexContract } from '../shared/run-index-contract.ts'
import { createDenoKvRunIndex } from '../../src/adapter/deno/create-deno-kv-run-index.ts'

const memoryKv = await Deno.openKv(':memory:')
const fileDir = await Deno.makeTempDir({ prefix: 'toolroute-kv-' })
const fileKv = await Deno.openKv(`${fileDir}/runs.sqlite3`)
globalThis.addEventListener('unload', () => {
  memoryKv.close()
  fileKv.close()
  Deno.removeSync(fileDir, { recursive: true })
})

defineRunStoreContract('Deno KV (memory)', () => createDenoKvRunStore(memoryKv), { test: (name, fn) => Deno.test(name, fn) })
defineRunStoreContract('Deno KV (file)', () => createDenoKvRunStore(fileKv), { test: (name, fn) => Deno.test(name, fn) })

const at = '2026-01-02T03:04:05.678Z'
const record = (runId: string, input: unknown = { path: '/tmp/x' }): RunRecord => ({
  runId,
  toolId: 'delete-file',
  toolCallId: 'call_1',
  principal: null,
  status: 'approval-required',
  createdAt: at,
  updatedAt: at,
  input,
  requestContext: {},
})
const log = (message: string): ToolEvent => ({ type: 'data-tool-log', data: { level: 'info', message, time: at } })

Deno.test('Deno KV: a record and events past 64 KiB are stored in parts and come back whole', async () => {
  const store = createDenoKvRunStore(memoryKv)
  const runId = crypto.randomUUID()
  // 1 MiB of input (the default maxInputBytes), half of it outside Latin-1 (two bytes a character in KV).
  const input = { text: 'a'.repeat(512 * 1024), wide: 'é€'.repeat(128 * 1024) }
  const deltas = Array.from({ length: 1500 }, (_, index): ToolEvent => ({ type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: `chunk ${index}` }))
  const created = await store.create(record(runId, input), [...deltas, { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'delete-file', input }])
  assert.equal(created.length, 1501)
  assert.deepEqual((await store.get(runId))?.input, input)
  const events = await store.events(runId, 1499)
  assert.deepEqual(events.map((entry) => entry.seq), [1500, 1501])
  assert.deepEqual(events[1]!.event, { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'delete-file', input })

  // Replacing a large record drops the parts of the old one.
  const output = { report: 'r'.repeat(200_000) }
  const done = await store.transition(runId, ['approval-required'], { status: 'completed', output, input: 'small' }, [log('done')])
  assert.ok(done.ok)
  assert.deepEqual((await store.get(runId))?.output, output)
  const blobs = new Set<unknown>()
  for await (const entry of memoryKv.list({ prefix: ['toolroute', 'run', runId, 'blob'] })) blobs.add(entry.key[4])
  // One blob for the new record, one for the large event batch of create; the old record's is gone.
  assert.equal(blobs.size, 2)

  await store.delete(runId)
  const left: unknown[] = []
  for await (const entry of memoryKv.list({ prefix: ['toolroute', 'run', runId] })) left.push(entry.key)
  assert.deepEqual(left, [])
  assert.equal((await memoryKv.get(['toolroute', 'run', runId])).versionstamp, null)
})

Deno.test('Deno KV: two handles on one database (two processes) race 40 approvals; exactly one wins', async () => {
  const other = await Deno.openKv(`${fileDir}/runs.sqlite3`)
  try {
    const stores = [createDenoKvRunStore(fileKv), createDenoKvRunStore(other)]
    const runId = crypto.randomUUID()
    await stores[0]!.create(record(runId), [log('created')])
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) => stores[index % 2]!.transition(runId, ['approval-required'], { status: 'running', reason: `by ${index}` }, [log(`approved by ${index}`)])),
    )
    const winners = results.filter((result) => result.ok)
    assert.equal(winners.length, 1)
    for (const result of results) if (!result.ok) assert.equal(result.reason === 'conflict' && result.run.status, 'running')
    const events = await stores[1]!.events(runId, 0)
    assert.deepEqual(events.map((entry) => entry.seq), [1, 2])
    assert.deepEqual(events[1], winners[0]!.ok ? winners[0]!.events[0] : undefined)
    assert.deepEqual(await stores[1]!.get(runId), winners[0]!.ok ? winners[0]!.run : undefined)
  } finally {
    other.close()
  }
})

Deno.test('Deno KV: writes features give the store commit with the record, or not at all: each feature\'s, on create, on the one transition of 20 racing that wins, never on an append or a lost race', async () => {
  const other = await Deno.openKv(`${fileDir}/runs.sqlite3`)
  const runId = crypto.randomUUID()
  // Two features (as the run index and webhooks are), each adding its own writes.
  const mark = (feature: string) => (run: RunRecord, operation: Deno.AtomicOperation, patch?: Partial<RunRecord>) => void operation.set([feature, runId, run.status, run.reason ?? '-'], patch ?? 'created')
  try {
    const stores = [createDenoKvRunStore(fileKv, mark('index'), mark('hooks')), createDenoKvRunStore(other, mark('index'), mark('hooks'))]
    await stores[0]!.create(record(runId), [log('created')])
    await stores[1]!.append(runId, [log('more')])
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => stores[index % 2]!.transition(runId, ['approval-required'], { status: 'running', reason: `by ${index}` })))
    const winner = results.find((result) => result.ok)
    for (const feature of ['index', 'hooks']) {
      const marks = await Array.fromAsync(fileKv.list({ prefix: [feature, runId] }))
      assert.deepEqual(marks.map((entry) => [entry.key.slice(2), entry.value]), [
        [['approval-required', '-'], 'created'],
        [['running', winner?.ok ? winner.run.reason : ''], { status: 'running', reason: winner?.ok ? winner.run.reason : '' }],
      ])
    }
  } finally {
    other.close()
  }
})

Deno.test('Deno KV: a record this code cannot read is refused, not cast', async () => {
  const store = createDenoKvRunStore(memoryKv)
  const runId = crypto.randomUUID()
  await memoryKv.set(['toolroute', 'run', runId], JSON.stringify({ runId, status: 'bogus' }))
  await assert.rejects(() => store.get(runId))
  await assert.rejects(() => store.transition(runId, ['approval-required'], { status: 'running' }))
  await memoryKv.set(['toolroute', 'run', runId], 42)
  await assert.rejects(() => store.get(runId), /not a run record/)
  await store.delete(runId)
})


defineRunIndexContract('Deno KV', async () => ({ index: createDenoKvRunIndex(memoryKv), principal: ((prefix) => (who: string) => `${prefix}:${who}`)(crypto.randomUUID()) }), {
  test: (name, fn) => Deno.test(name, fn),
})
