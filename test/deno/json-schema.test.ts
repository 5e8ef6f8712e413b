// Plain JSON Schemas under Deno: 'toolroute' (deno.json maps it as the package's default condition
// does) registers the validator on import, and the Deno adapter passes it to its app too.
import assert from 'node:assert/strict'
import { createTool } from 'toolroute'
import { createDenoToolApp } from 'toolroute/deno'

const double = createTool({
  id: 'double',
  description: 'Doubles n',
  inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  execute: async (input) => ({ doubled: (input as { n: number }).n * 2 }),
})

Deno.test('a plain JSON Schema validates in a direct call and over HTTP', async () => {
  assert.deepEqual(await double.execute!({ n: 2 } as never), { doubled: 4 })
  const direct = (await double.execute!({ n: 'two' } as never)) as { error?: boolean; validationErrors?: unknown }
  assert.equal(direct.error, true)
  assert.ok(direct.validationErrors)
  const kv = await Deno.openKv(':memory:')
  try {
    const { app } = await createDenoToolApp({ tools: [double], kv, queue: false })
    const post = (body: unknown) => app.request('/tools/double', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const ok = await post({ n: 3 })
    assert.equal(ok.status, 200)
    assert.deepEqual(((await ok.json()) as { output: unknown }).output, { doubled: 6 })
    const bad = await post({ n: 'three' })
    assert.equal(bad.status, 400)
    const body = (await bad.json()) as { error: { code: string; issues: { path: unknown[] }[] } }
    assert.equal(body.error.code, 'INPUT_VALIDATION_FAILED')
    assert.deepEqual(body.error.issues[0]!.path, ['n'])
  } finally {
    kv.close()
  }
})
