// Issue 45 under Deno, runs and keys in Deno KV: a key settles whatever the tool returned (no JSON, a
// large output), every stream ends, a void result is `output: null`, a thrown non-Error carries only
// its message, a bad x-tool-call-id is refused. test/workers/odd-outputs.test.ts holds workerd.
import assert from 'node:assert/strict'
import { createTool } from 'toolroute'
import { z } from 'zod'
import { readSse } from '../fixtures/read-sse.ts'
import { testTools, withApp } from './harness.ts'

const notJson = 'Tool output is not JSON (a BigInt, a cycle or a toJSON that throws): it cannot be sent or kept'
const executed = new Map<string, number>()
const cycle = () => {
  const value: Record<string, unknown> = {}
  value.self = value
  return value
}
const outputs = {
  bigint: () => ({ n: 1n }),
  cycle,
  tojson: () => ({ toJSON: () => { throw new Error('no') } }),
  void: () => undefined,
  huge: () => ({ text: 'x'.repeat(4_500_000) }),
}
const odd = createTool({
  id: 'odd',
  description: 'x',
  inputSchema: z.object({ key: z.string(), kind: z.enum(['bigint', 'cycle', 'tojson', 'void', 'huge']) }),
  execute: async ({ key, kind }) => (executed.set(key, (executed.get(key) ?? 0) + 1), outputs[kind]() as never),
})
const throwing = createTool({
  id: 'throwing',
  description: 'x',
  inputSchema: z.object({}),
  onInputAvailable: () => {
    throw { n: 1n, toString: () => { throw new Error('unprintable') } }
  },
  execute: async () => {
    throw { detail: 'sk_hidden' }
  },
})
const tools = [...testTools, odd, throwing]

for (const kind of ['bigint', 'cycle', 'tojson'] as const) {
  Deno.test(`${kind}: a keyed call settles on its failure, repeats replay it, it executed once; SSE ends`, () =>
    withApp(
      async ({ request }) => {
        const key = `deno-${kind}`
        const first = await request('/tools/odd', { json: { key, kind }, headers: { 'idempotency-key': key } })
        const text = await first.text()
        assert.equal(first.status, 500)
        assert.deepEqual(JSON.parse(text), { error: { code: 'EXECUTION_FAILED', message: notJson } })
        const again = await request('/tools/odd', { json: { key, kind }, headers: { 'idempotency-key': key } })
        assert.equal(again.headers.get('idempotent-replayed'), 'true')
        assert.equal(await again.text(), text)
        assert.equal(executed.get(key), 1)
        const sse = await readSse(await request('/tools/odd', { json: { key: `${key}-sse`, kind }, sse: true }))
        assert.ok(sse.done)
        assert.deepEqual(sse.events.at(-2), { type: 'tool-output-error', toolCallId: (sse.events.at(-2) as { toolCallId?: string } | undefined)?.toolCallId, errorText: notJson })
      },
      { tools },
    ))
}

Deno.test('a large keyed output is kept or fails naming why; either way a repeat never executes again', () =>
  withApp(
    async ({ request }) => {
      const key = 'deno-huge'
      const first = await request('/tools/odd', { json: { key, kind: 'huge' }, headers: { 'idempotency-key': key } })
      const text = await first.text()
      const again = await request('/tools/odd', { json: { key, kind: 'huge' }, headers: { 'idempotency-key': key } })
      assert.equal(again.headers.get('idempotent-replayed'), 'true')
      assert.equal(again.status, first.status)
      assert.equal(await again.text(), text)
      assert.equal(executed.get(key), 1)
    },
    { tools },
  ))

Deno.test('void is output: null; a thrown non-Error is the fixed text; a bad x-tool-call-id is 400', () =>
  withApp(
    async ({ request }) => {
      const body = await (await request('/tools/odd', { json: { key: 'deno-void', kind: 'void' } })).json()
      assert.equal(body.output, null)
      assert.deepEqual(body.modelOutput, { type: 'json', value: null })
      const thrown = await (await request('/tools/throwing', { json: {} })).text()
      assert.deepEqual(JSON.parse(thrown), { error: { code: 'EXECUTION_FAILED', message: 'Tool threw a non-Error value' } })
      const refused = await request('/tools/odd', { json: { key: 'deno-id', kind: 'void' }, headers: { 'x-tool-call-id': 'x'.repeat(129) } })
      assert.equal(refused.status, 400)
      assert.equal((await refused.json()).error.code, 'INVALID_HEADER')
      assert.equal(refused.headers.get('x-tool-call-id'), null)
    },
    { tools },
  ))
