// How `deno task dev` finds tools: every module of tools/, no build step, ids checked with the
// file names in the message, as `toolroute build` does for the Worker.
import assert from 'node:assert/strict'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createDenoToolApp, loadTools } from 'toolroute/deno'
import { repoRoot } from './harness.ts'

/** A directory of tool modules inside the repo, so their bare imports resolve through deno.json. */
async function toolsDir(files: Record<string, string>): Promise<string> {
  await Deno.mkdir(new URL('.toolroute/', repoRoot), { recursive: true })
  const dir = await Deno.makeTempDir({ dir: new URL('.toolroute/', repoRoot).pathname, prefix: 'deno-tools-' })
  for (const [name, source] of Object.entries(files)) await Deno.writeTextFile(`${dir}/${name}`, source)
  return dir
}

const tool = (exportName: string, id: string) => `
import { createTool } from 'toolroute'
import { z } from 'zod'
export const ${exportName} = createTool({ id: '${id}', description: 'd', inputSchema: z.object({}), execute: async () => ({}) })
`

Deno.test('loadTools: every tool of tools/, with the file it came from', async () => {
  const { tools, files } = await loadTools(new URL('tools/', repoRoot))
  const ids = tools.map((each) => each.id)
  assert.ok(ids.includes('weather-tool') && ids.includes('book-flight') && ids.includes('generate-report'))
  assert.equal(new Set(ids).size, ids.length)
  assert.equal(files.get('weather-tool'), 'tools/weather-tool.ts (export weatherTool)')
})

Deno.test('loadTools: skips tests, declarations and non-tool exports; one tool exported twice counts once', async () => {
  const dir = await toolsDir({
    'a.ts': `${tool('alpha', 'alpha')}\nexport const helper = { id: 'not-a-tool' }\nexport default alpha\n`,
    'a.test.ts': 'throw new Error("a test file must not be imported")\n',
    'types.d.ts': 'export type X = 1\n',
    'notes.md': '# not a module\n',
  })
  try {
    const { tools, files } = await loadTools(dir)
    assert.deepEqual(tools.map((each) => each.id), ['alpha'])
    assert.match(files.get('alpha')!, /a\.ts \(export alpha\)$/)
  } finally {
    await Deno.remove(dir, { recursive: true })
  }
})

Deno.test('loadTools: two tools with one id are refused, naming both files', async () => {
  const dir = await toolsDir({ 'first.ts': tool('one', 'same-id'), 'second.ts': tool('two', 'same-id') })
  try {
    await assert.rejects(() => loadTools(dir), (error: Error) => {
      assert.match(error.message, /tool id "same-id" is defined twice: .*first\.ts \(export one\) and .*second\.ts \(export two\)/)
      return true
    })
  } finally {
    await Deno.remove(dir, { recursive: true })
  }
})

Deno.test('loadTools: any id as Mastra allows, but two ids with one MCP name are refused, naming both files', async () => {
  const served = await toolsDir({ 'spaced.ts': tool('spaced', 'Lookup order'), 'dotted.ts': tool('dotted', 'orders.lookup') })
  const clashing = await toolsDir({ 'spaced.ts': tool('spaced', 'Lookup order'), 'underscored.ts': tool('underscored', 'Lookup_order') })
  try {
    const { tools } = await loadTools(served)
    assert.deepEqual(tools.map((each) => each.id).sort(), ['Lookup order', 'orders.lookup'])
    await assert.rejects(() => loadTools(clashing), (error: Error) => {
      assert.match(error.message, /tool ids "Lookup order" \(.*spaced\.ts \(export spaced\)\) and "Lookup_order" \(.*underscored\.ts \(export underscored\)\) have one MCP name "Lookup_order"/)
      return true
    })
  } finally {
    await Deno.remove(served, { recursive: true })
    await Deno.remove(clashing, { recursive: true })
  }
})

Deno.test('loadTools: a module that fails to load fails only its own tool, 503 BUILD_FAILED "<file>:<line>: <what>" as on Workers', async () => {
  const dir = await toolsDir({
    'good.ts': tool('good', 'good'),
    // A Workers-only import (Deno cannot load it), and a module that throws as it loads.
    'workers-only.ts': `import { env } from 'cloudflare:workers'\n${tool('bad', 'bad')}\nexport const prefix = () => env.PREFIX\n`,
    'broken.ts': '// fails as it loads\nthrow new Error("broken tool module")\n',
  })
  const logged: unknown[] = []
  const error = console.error
  console.error = (...args: unknown[]) => void logged.push(args.join(' '))
  const kv = await Deno.openKv(':memory:')
  const folder = dir.split('/').at(-1)
  try {
    const { tools, files, failed } = await loadTools(dir)
    console.error = error
    // Served under its file's name (its tool's own id is unknown: the module never ran).
    assert.deepEqual(tools.map((each) => each.id).sort(), ['broken', 'good', 'workers-only'])
    assert.deepEqual(failed, [`${folder}/broken.ts:2: broken tool module`, `${folder}/workers-only.ts:1: Unsupported scheme "cloudflare" for module "cloudflare:workers".`])
    assert.equal(files.get('broken'), `${folder}/broken.ts (failed to load)`)
    assert.equal(logged.length, 2) // each failure is logged once, with its file
    assert.match(String(logged[1]), /workers-only\.ts failed to load \(its tool answers 503 BUILD_FAILED; the others are served\)/)

    const { app } = await createDenoToolApp({ tools, kv, queue: false })
    const call = (id: string) => app.request(`/tools/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    assert.equal((await call('good')).status, 200)
    // What `toolroute dev` answers for a tool file that does not build: `{ error: { code, message: "<file>:<line>: <what>" } }`.
    for (const [id, message] of [['broken', failed[0]], ['workers-only', failed[1]]]) {
      const response = await call(id!)
      assert.equal(response.status, 503)
      assert.deepEqual(await response.json(), { error: { code: 'BUILD_FAILED', message } })
    }
    const listed = (await (await app.request('/tools')).json()).tools as { id: string; description: string }[]
    assert.deepEqual(listed.map((each) => each.id).sort(), ['broken', 'good', 'workers-only'])
    assert.equal(listed.find((each) => each.id === 'workers-only')?.description, `Failed to load: ${failed[1]}`)
    // MCP lists the same tools, and a call of the broken one is an error result with the same message.
    const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: () => {} }, (request) => app.fetch(request))
    const client = new Client({ name: 'deno-load-tools', version: '1.0.0' })
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)))
      assert.deepEqual((await client.listTools()).tools.map((each) => each.name).sort(), ['broken', 'good', 'workers-only'])
      const result = await client.callTool({ name: 'broken', arguments: {} })
      assert.equal(result.isError, true)
      assert.match(JSON.stringify(result.content), /broken\.ts:2: broken tool module/)
    } finally {
      await client.close()
      await server.shutdown()
    }
  } finally {
    console.error = error
    kv.close()
    await Deno.remove(dir, { recursive: true })
  }
})

Deno.test('a secret read as docs/secrets.md teaches, process.env.NAME, reads the same under Deno as on Workers', async () => {
  const dir = await toolsDir({
    'greet-env.ts': `import { createTool } from 'toolroute'\nexport const greetEnv = createTool({ id: 'greet-env', description: 'd', execute: async () => ({ prefix: process.env.GREETING_PREFIX }) })\n`,
  })
  Deno.env.set('GREETING_PREFIX', 'Bonjour')
  const kv = await Deno.openKv(':memory:')
  try {
    const { tools } = await loadTools(dir)
    const { app } = await createDenoToolApp({ tools, kv, queue: false })
    const response = await app.request('/tools/greet-env', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    assert.deepEqual((await response.json()).output, { prefix: 'Bonjour' })
  } finally {
    Deno.env.delete('GREETING_PREFIX')
    kv.close()
    await Deno.remove(dir, { recursive: true })
  }
})
