// The Worker `toolroute build` generates lists its tools from the build's manifest and imports a
// tool's module on that tool's first call (SPEC §11). A fixture project whose modules record, at
// their top level, that they were evaluated, and one whose module throws when loaded on workerd
// (it built fine in Node), is bundled by `wrangler deploy --dry-run`, as a deploy would, and served.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DirectWorkerd } from './direct-workerd.ts'
import { fixtureProject } from './fixture-project.ts'

let server: DirectWorkerd

// Each module appends its name to a list when its top level runs; `evaluated-modules` reads it.
const record = (name: string) => `;((globalThis as { evaluated?: string[] }).evaluated ??= []).push(${JSON.stringify(name)})\n`
const files: Record<string, string> = {
  'tools/evaluated.ts': `import { createTool } from 'toolroute'
import { z } from 'zod'
${record('evaluated')}
export const evaluatedModules = createTool({
  id: 'evaluated-modules',
  description: 'The tool modules evaluated so far in this isolate',
  inputSchema: z.object({}),
  execute: async () => ({ modules: (globalThis as { evaluated?: string[] }).evaluated ?? [] }),
})
`,
  'tools/echo.ts': `import { createTool } from 'toolroute'
import { z } from 'zod'
${record('echo')}
export const echoTool = createTool({
  id: 'echo-tool',
  description: 'Echoes its text',
  inputSchema: z.object({ text: z.string() }),
  outputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => ({ text }),
})
`,
  // Defined fine in Node (the build evaluates it there), but its top level throws on workerd, as a
  // module reading a Workers-only global at load would.
  'tools/broken.ts': `import { createTool } from 'toolroute'
import { z } from 'zod'
${record('broken')}
export const brokenTool = createTool({
  id: 'broken-tool',
  description: 'A tool whose module cannot load on Workers',
  inputSchema: z.object({ n: z.number() }),
  execute: async ({ n }) => ({ n }),
})
if (navigator.userAgent === 'Cloudflare-Workers') throw new Error('broken at load: no such binding')
`,
}

const project = fixtureProject('lazy', files, { idempotencyBinding: true })

beforeAll(async () => {
  server = await project.start()
})
afterAll(async () => {
  await server?.stop()
  project.remove()
})

const call = (id: string, body: unknown) => fetch(`${server.url}/tools/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const evaluated = async () => ((await (await call('evaluated-modules', {})).json()) as { output: { modules: string[] } }).output.modules

async function mcpClient() {
  const client = new Client({ name: 'e2e-lazy', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
  return client
}

// In order (tests of a file run sequentially): each step depends on what the isolate has evaluated so far.
describe('lazy tools: a Worker built by toolroute build', () => {
  it('lists every tool, with its JSON Schemas, from the manifest: GET /tools, /tools/:id, /openapi.json, MCP tools/list', async () => {
    const list = (await (await fetch(`${server.url}/tools`)).json()) as { tools: { id: string; inputSchema: { properties?: object } }[] }
    expect(list.tools.map((tool) => tool.id).sort()).toEqual(['broken-tool', 'echo-tool', 'evaluated-modules'])
    const broken = (await (await fetch(`${server.url}/tools/broken-tool`)).json()) as { inputSchema: { properties: object }; requireApproval: boolean }
    expect(broken).toMatchObject({ id: 'broken-tool', requireApproval: false, inputSchema: { type: 'object', properties: { n: { type: 'number' } } } })
    const echo = (await (await fetch(`${server.url}/tools/echo-tool`)).json()) as { outputSchema: object }
    expect(echo.outputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } })
    expect((await fetch(`${server.url}/tools/no-such-tool`)).status).toBe(404)
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/tools/broken-tool', '/tools/echo-tool', '/tools/evaluated-modules']))
    const client = await mcpClient()
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(['broken-tool', 'echo-tool', 'evaluated-modules'])
    expect(tools.find((tool) => tool.name === 'broken-tool')?.inputSchema).toMatchObject({ type: 'object', properties: { n: { type: 'number' } } })
    await client.close()
  })

  it('has evaluated no tool module for the listings: the first call evaluates its own module only', async () => {
    expect(await evaluated()).toEqual(['evaluated'])
  })

  it('fails the calls of a tool whose module throws at load with EXECUTION_FAILED naming the file, every time, without a stack', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await call('broken-tool', { n: 1 })
      expect(response.status).toBe(500)
      const body = (await response.json()) as { error: { code: string; message: string } }
      expect(body).toEqual({ error: { code: 'EXECUTION_FAILED', message: 'Tool "broken-tool" failed to load (tools/broken.ts): broken at load: no such binding' } })
    }
    const client = await mcpClient()
    const result = (await client.callTool({ name: 'broken-tool', arguments: { n: 1 } })) as { isError?: boolean; content: { text: string }[] }
    expect(result.isError).toBe(true)
    expect(result.content[0]?.text).toBe('EXECUTION_FAILED: Tool "broken-tool" failed to load (tools/broken.ts): broken at load: no such binding')
    await client.close()
  })

  it('keeps serving the other tools, each module evaluated on its first call', async () => {
    const response = await call('echo-tool', { text: 'hi' })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'completed', output: { text: 'hi' } })
    const client = await mcpClient()
    const result = (await client.callTool({ name: 'echo-tool', arguments: { text: 'over mcp' } })) as { structuredContent?: unknown }
    expect(result.structuredContent).toEqual({ text: 'over mcp' })
    await client.close()
    // broken.ts ran (and threw) once, on its first call; echo.ts once, for both of its calls.
    expect(await evaluated()).toEqual(['evaluated', 'broken', 'echo'])
  })

  it('validates input before anything else, as for an eager tool', async () => {
    const response = await call('echo-tool', { text: 42 })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: 'INPUT_VALIDATION_FAILED' } })
  })
})
