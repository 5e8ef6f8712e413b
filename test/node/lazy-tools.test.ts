// LazyTools in one process: an app served from a manifest (as `toolroute build` writes it) lists
// without importing a tool module, imports one on its tool's first call (HTTP, MCP, or a run's
// next step in another registry, as a Durable Object would), and fails only that tool's calls
// when its module throws.
import { gzipSync } from 'node:zlib'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createTool, type AnyTool } from 'toolroute'
import { createMemoryRunStore, createRunEngine, createToolApp, driveRuns, LazyTools } from 'toolroute/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { collectTools } from '../../src/tool/collect-tools.ts'
import { createToolManifest } from '../../src/manifest/create-tool-manifest.ts'

const echo = createTool({ id: 'echo', description: 'Echo', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => ({ text }) })
const guarded = createTool({ id: 'guarded', description: 'Needs approval', requireApproval: true, inputSchema: z.object({}), execute: async () => ({ done: true }) })
const broken = createTool({ id: 'broken', description: 'Its module throws on Workers', inputSchema: z.object({ n: z.number() }), execute: async () => ({}) })
const modules = { 'tools/echo.ts': { echo }, 'tools/guarded.ts': { guarded }, 'tools/broken.ts': { broken } }
const manifest = createToolManifest(collectTools(Object.entries(modules).map(([file, exports]) => ({ file, exports }))).tools)

// As toolroute build writes a part: gzipped when large, JSON text while small.
const gzipped = (value: unknown) => gzipSync(JSON.stringify(value)).toString('base64')
const asText = (value: unknown) => JSON.stringify(value)

/** Lazy tools over the modules above, counting each module's imports; `tools/broken.ts` throws. */
function lazyTools(packed = gzipped) {
  const imports: string[] = []
  const tools = new LazyTools({
    modules: manifest.files.map((file) => async () => {
      imports.push(file)
      if (file === 'tools/broken.ts') throw new Error('no such binding')
      return modules[file as keyof typeof modules] as Record<string, AnyTool>
    }),
    routes: manifest.routes,
    listings: { descriptors: packed(manifest.listings.descriptors), mcpTools: packed(manifest.listings.mcpTools) },
  })
  return { tools, imports }
}
const post = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('an app of LazyTools', () => {
  // A module that fails to load is logged with its stack (the server's log; never the response).
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  afterEach(() => logged.mockClear())

  it.each([
    ['gzipped', gzipped],
    ['JSON text', asText],
  ])('lists from the manifest (%s) without importing a module, as an app of the same tools does', async (_, packed) => {
    const { tools, imports } = lazyTools(packed)
    const app = createToolApp({ tools })
    const eager = createToolApp({ tools: [echo, guarded, broken] })
    for (const path of ['/tools', '/tools/echo', '/tools/broken', '/openapi.json', '/api/tools']) {
      expect(await (await app.request(path)).json()).toEqual(await (await eager.request(path)).json())
    }
    expect((await app.request('/tools/nope')).status).toBe(404)
    expect(imports).toEqual([])
  })

  it('serves the OpenAPI document, built from the manifest\'s descriptors, for the base path and server it is mounted with', async () => {
    const { tools } = lazyTools()
    const options = { basePath: '/v2/', server: { name: 'moved', version: '3.0.0' } }
    const [app, eager] = [createToolApp({ tools, ...options }), createToolApp({ tools: [echo, guarded, broken], ...options })]
    const document = (await (await app.request('/v2/openapi.json')).json()) as { paths: Record<string, unknown> }
    expect(document).toEqual(await (await eager.request('/v2/openapi.json')).json())
    expect(Object.keys(document.paths)).toContain('/v2/tools/echo')
  })

  it('imports a module on its first call only, and answers an unknown tool 404 without importing', async () => {
    const { tools, imports } = lazyTools()
    const app = createToolApp({ tools })
    expect((await app.request('/tools/nope', post({}))).status).toBe(404)
    for (let call = 0; call < 3; call++) expect(await (await app.request('/tools/echo', post({ text: 'hi' }))).json()).toMatchObject({ output: { text: 'hi' } })
    expect((await app.request('/tools/echo', post({ text: 1 }))).status).toBe(400)
    expect(imports).toEqual(['tools/echo.ts'])
    expect(tools.get('echo')).toBe(echo)
  })

  it('fails a tool whose module throws with EXECUTION_FAILED naming it, on every call, and serves the others', async () => {
    const { tools, imports } = lazyTools()
    const app = createToolApp({ tools })
    for (let call = 0; call < 2; call++) {
      const response = await app.request('/tools/broken', post({ n: 1 }))
      expect(response.status).toBe(500)
      expect(await response.json()).toEqual({ error: { code: 'EXECUTION_FAILED', message: 'Tool "broken" failed to load (tools/broken.ts): no such binding' } })
    }
    expect(imports).toEqual(['tools/broken.ts']) // not imported again: a failed module stays failed
    expect(logged).toHaveBeenCalledOnce()
    expect(logged.mock.calls[0]).toEqual(['toolroute: tools/broken.ts (tool "broken") failed to load:', expect.objectContaining({ message: 'no such binding', stack: expect.stringContaining('lazy-tools.test.ts') })])
    expect((await app.request('/tools/echo', post({ text: 'still' }))).status).toBe(200)
  })

  it('over MCP: lists from the manifest, calls by name, and a module that throws is the call’s isError result', async () => {
    const { tools, imports } = lazyTools()
    const app = createToolApp({ tools })
    const client = new Client({ name: 'lazy', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: async (url, init) => app.request(String(url), init) }))
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'guarded', 'broken'])
    expect(imports).toEqual([])
    expect(await client.callTool({ name: 'echo', arguments: { text: 'mcp' } })).toMatchObject({ structuredContent: { text: 'mcp' } })
    const failed = await client.callTool({ name: 'broken', arguments: { n: 1 } })
    expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'EXECUTION_FAILED: Tool "broken" failed to load (tools/broken.ts): no such binding' }] })
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/)
    await client.close()
  })

  it('a run approved where the tool is not loaded yet (another registry, as a Durable Object) imports it there', async () => {
    const store = createMemoryRunStore()
    const worker = lazyTools()
    const object = lazyTools()
    const app = createToolApp({ tools: worker.tools, runs: createRunEngine({ drive: driveRuns(object.tools), store }) })
    const started = (await (await app.request('/tools/guarded', post({}))).json()) as { runId: string; status: string }
    expect(started.status).toBe('approval-required')
    expect(object.imports).toEqual([])
    const approved = await app.request(`/runs/${started.runId}/approve`, { method: 'POST' })
    expect(await approved.json()).toMatchObject({ status: 'completed', output: { done: true } })
    expect(object.imports).toEqual(['tools/guarded.ts'])
  })
})
