// How `deno task dev` finds tools: every module of tools/, no build step, ids checked with the
// file names in the message, as `toolroute build` does for the Worker.
import assert from 'node:assert/strict'
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

Deno.test('loadTools: a module that fails to load (a Workers-only import) fails only its own tools, as on Workers', async () => {
  const dir = await toolsDir({
    'good.ts': tool('good', 'good'),
    'workers-only.ts': `import { env } from 'cloudflare:workers'\n${tool('bad', 'bad')}\nexport const prefix = () => env.PREFIX\n`,
  })
  const logged: unknown[] = []
  const error = console.error
  console.error = (...args: unknown[]) => void logged.push(args.join(' '))
  try {
    const { tools, failed } = await loadTools(dir)
    assert.deepEqual(tools.map((each) => each.id), ['good'])
    assert.equal(failed.length, 1)
    assert.match(failed[0]!, /workers-only\.ts: .*cloudflare/)
    assert.match(String(logged[0]), /workers-only\.ts: .*\(its tools are not served until it loads\)/)
  } finally {
    console.error = error
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
