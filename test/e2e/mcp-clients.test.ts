// Issue #45: list, call and cancel with the real MCP clients as users run them, against `wrangler dev`,
// each with its defaults (no Authorization, no elicitation): SDK v1 1.32, SDK v2 (2025-11-25), mcp-remote
// 0.15 (a stdio proxy, driven with the SDK's StdioClientTransport, as Claude Desktop runs it) and
// `@ai-sdk/mcp` (2026-07-28). A cancelled call's run (generate-report runs in the background) ends
// `cancelled`, seen in the caller's own tasks/list (its session's) or, at 2026, over HTTP.
import { afterEach, describe, expect, inject, it } from 'vitest'
import { z } from 'zod'
import { createRequire } from 'node:module'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client'
import { createMCPClient } from '@ai-sdk/mcp'

const mcpUrl = () => new URL('/mcp', inject('baseUrl'))
const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close().catch(() => {})))
})

const tasksSchema = z.object({ tasks: z.array(z.object({ taskId: z.string(), status: z.string() }).passthrough()) }).passthrough()
type Tasks = z.infer<typeof tasksSchema>['tasks']

/** What every 2025 client does: list, call, then cancel a long call and see its run cancelled. */
interface Driven {
  listTools(): Promise<{ tools: { name: string }[] }>
  callTool(params: { name: string; arguments: Record<string, unknown> }, options?: { signal?: AbortSignal }): Promise<{ structuredContent?: unknown }>
  request(request: { method: string; params: Record<string, unknown> }, schema: typeof tasksSchema): Promise<{ tasks: Tasks }>
}

async function poll(read: () => Promise<Tasks>, check: (tasks: Tasks) => boolean): Promise<Tasks> {
  let tasks = await read()
  for (let attempt = 0; attempt < 200 && !check(tasks); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    tasks = await read()
  }
  return tasks
}

/** SDK v1's `callTool` takes its options third (a result schema second). */
const v1 = (client: V1Client): Driven => ({
  listTools: () => client.listTools(),
  callTool: (params, options) => client.callTool(params, undefined, options) as never,
  request: (request, schema) => client.request(request as never, schema as never) as never,
})

async function listCallCancel(client: Driven) {
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('weather-tool')
  expect((await client.callTool({ name: 'weather-tool', arguments: { location: 'Berlin' } })).structuredContent).toMatchObject({ location: 'Berlin' })
  const listed = async () => (await client.request({ method: 'tasks/list', params: {} }, tasksSchema)).tasks
  const abort = new AbortController()
  const call = client.callTool({ name: 'generate-report', arguments: { month: '2027-02', delayMs: 5000 } }, { signal: abort.signal })
  const [started] = await poll(listed, (tasks) => tasks.length === 1)
  expect(started?.status).toBe('working')
  abort.abort(new Error('the user stopped it'))
  await expect(call).rejects.toThrow()
  const [ended] = await poll(listed, (tasks) => tasks[0]?.status !== 'working')
  expect(ended).toMatchObject({ taskId: started!.taskId, status: 'cancelled' })
}

describe('every MCP client, with its defaults, lists, calls and cancels its own call (wrangler dev)', () => {
  it('SDK v1 1.32 (2025-11-25)', async () => {
    const client = new V1Client({ name: 'e2e-v1', version: '1.0.0' })
    const transport = new V1Transport(mcpUrl())
    closers.push(() => client.close())
    await client.connect(transport)
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    await listCallCancel(v1(client))
  })

  it('SDK v2 (its default: 2025-11-25)', async () => {
    const client = new V2Client({ name: 'e2e-v2', version: '1.0.0' })
    const transport = new V2Transport(mcpUrl())
    closers.push(() => client.close())
    await client.connect(transport)
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25')
    await listCallCancel(client as unknown as Driven)
  })

  it('mcp-remote 0.15 (stdio proxy) under the SDK v1 client', async () => {
    const proxy = createRequire(import.meta.url).resolve('mcp-remote/dist/proxy.js')
    const transport = new StdioClientTransport({ command: process.execPath, args: [proxy, mcpUrl().href, '--allow-http', '--transport', 'http-only'], stderr: 'ignore' })
    const client = new V1Client({ name: 'e2e-mcp-remote', version: '1.0.0' })
    closers.push(() => client.close())
    await client.connect(transport)
    await listCallCancel(v1(client))
  }, 60_000)

  it('@ai-sdk/mcp (2026-07-28): its abortSignal cancels the run', async () => {
    // A credential only so the test can read the run's state over HTTP afterwards (a 2026 client has no session).
    const authorization = `Bearer ai-sdk-${crypto.randomUUID()}`
    const client = await createMCPClient({ transport: { type: 'http', url: mcpUrl().href, headers: { authorization } } })
    closers.push(() => client.close())
    const tools = await client.tools()
    expect(Object.keys(tools)).toContain('weather-tool')
    const weather = (await tools['weather-tool']!.execute!({ location: 'Paris' }, { toolCallId: 'c1', messages: [], context: {} })) as { structuredContent?: unknown }
    expect(weather.structuredContent).toMatchObject({ location: 'Paris' })
    const listed = async (): Promise<Tasks> => {
      const response = await fetch(mcpUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/list' }),
      })
      return ((await response.json()) as { result: { tasks: Tasks } }).result.tasks
    }
    const abort = new AbortController()
    const call = tools['generate-report']!.execute!({ month: '2027-03', delayMs: 5000 }, { toolCallId: 'c2', messages: [], context: {}, abortSignal: abort.signal })
    const [started] = await poll(listed, (tasks) => tasks.length === 1)
    expect(started?.status).toBe('working')
    abort.abort(new Error('the user stopped it'))
    await Promise.resolve(call).catch(() => {})
    const [ended] = await poll(listed, (tasks) => tasks[0]?.status !== 'working')
    expect(ended).toMatchObject({ taskId: started!.taskId, status: 'cancelled' })
  })
})
