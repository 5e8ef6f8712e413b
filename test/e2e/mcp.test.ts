import { afterEach, describe, expect, inject, it } from 'vitest'
import { createMCPClient, ElicitationRequestSchema, type MCPClient } from '@ai-sdk/mcp'

type ClientCapabilities = NonNullable<Parameters<typeof createMCPClient>[0]['capabilities']>
import { Client, StreamableHTTPClientTransport, type ElicitResult } from '@modelcontextprotocol/client'

// MCP against a real `wrangler dev` (local workerd, Durable Objects for runs and sessions),
// over real HTTP, with the official SDK (v2) client at 2025-11-25 and at 2026-07-28, and the AI
// SDK's MCP client. (The v1 SDK client is driven in examples/mcp-clients.)
const mcpUrl = () => new URL('/mcp', inject('baseUrl'))
const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close().catch(() => {})))
})

async function sdkClient(answer?: () => ElicitResult) {
  // The default handshake: `initialize` at 2025-11-25.
  const client = new Client({ name: 'e2e', version: '1.0.0' }, { capabilities: answer ? { elicitation: {} } : {} })
  if (answer) client.setRequestHandler('elicitation/create', async () => answer())
  const transport = new StreamableHTTPClientTransport(mcpUrl())
  closers.push(() => client.close())
  await client.connect(transport)
  return { client, transport }
}

describe('MCP 2025-11-25 over wrangler dev, the SDK v2 client', () => {
  it('lists the tools of tools/ with their metadata and calls one', async () => {
    const { client } = await sdkClient()
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25')
    const { tools } = await client.listTools()
    const deleteFile = tools.find((tool) => tool.name === 'delete-file')
    expect(deleteFile).toMatchObject({ title: 'Delete file', annotations: { destructiveHint: true }, _meta: { category: 'filesystem' } })
    const result = await client.callTool({ name: 'weather-tool', arguments: { location: 'Berlin' } })
    expect(result.structuredContent).toEqual({ location: 'Berlin', temperatureCelsius: 21, conditions: 'sunny' })
  })

  it('runs an elicitation round trip through the session object', async () => {
    const { client, transport } = await sdkClient(() => ({ action: 'accept', content: { confirm: true, quantity: 2 } }))
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const result = await client.callTool({ name: 'confirm-order', arguments: { item: 'Tea', quantity: 5 } })
    expect(result.structuredContent).toEqual({ status: 'placed', item: 'Tea', quantity: 2, orderId: 'ord_tea_2' })
  })

  it('approves a run by elicitation; the run is durable and settled once', async () => {
    const { client, transport } = await sdkClient(() => ({ action: 'accept', content: { approved: true } }))
    const result = await client.callTool({ name: 'delete-file', arguments: { path: '/tmp/e2e' } })
    expect(result.structuredContent).toEqual({ deleted: '/tmp/e2e' })
    const { runId } = result._meta?.['toolroute/run'] as { runId: string }
    // The session sent no credential, so the run is the session's (SPEC §12): HTTP names it.
    const run = await fetch(new URL(`/runs/${runId}`, inject('baseUrl')), { headers: { 'mcp-session-id': transport.sessionId! } })
    expect(await run.json()).toMatchObject({ status: 'completed', output: { deleted: '/tmp/e2e' } })
  })
})

describe("MCP over wrangler dev, the AI SDK's MCP client", () => {
  async function aiClient(config: { capabilities?: ClientCapabilities } = {}): Promise<MCPClient> {
    const client = await createMCPClient({ transport: { type: 'http', url: mcpUrl().href }, ...config })
    closers.push(() => client.close())
    return client
  }

  it('tools() yields tools that execute against the server', async () => {
    const client = await aiClient()
    const tools = await client.tools()
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['weather-tool', 'chart-tool', 'delete-file']))
    const result = (await tools['weather-tool']!.execute!({ location: 'Paris' }, { toolCallId: 'call_1', messages: [], context: {} })) as {
      structuredContent?: unknown
      content: unknown[]
      isError?: boolean
    }
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ location: 'Paris', temperatureCelsius: 21, conditions: 'sunny' })

    const invalid = (await tools['weather-tool']!.execute!({ location: '' }, { toolCallId: 'call_2', messages: [], context: {} })) as { isError?: boolean }
    expect(invalid.isError).toBe(true)
  })

  it('answers a tool question with onElicitationRequest', async () => {
    const client = await aiClient({ capabilities: { elicitation: {} } })
    const asked: string[] = []
    client.onElicitationRequest(ElicitationRequestSchema, async (request) => {
      asked.push(request.params.message)
      return { action: 'accept', content: { confirm: true } }
    })
    const tools = await client.tools()
    const result = (await tools['confirm-order']!.execute!({ item: 'Cake', quantity: 1 }, { toolCallId: 'call_3', messages: [], context: {} })) as {
      structuredContent?: unknown
    }
    expect(asked).toEqual(['Place an order for 1 × Cake?'])
    expect(result.structuredContent).toEqual({ status: 'placed', item: 'Cake', quantity: 1, orderId: 'ord_cake_1' })
  })
})

describe('MCP 2026-07-28 over wrangler dev, the SDK v2 client', () => {
  async function modernClient(answer?: () => { action: 'accept'; content: Record<string, string | number | boolean> }) {
    const client = new Client(
      { name: 'e2e-modern', version: '1.0.0' },
      { capabilities: answer ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode: 'auto' } },
    )
    if (answer) client.setRequestHandler('elicitation/create', async () => answer())
    closers.push(() => client.close())
    await client.connect(new StreamableHTTPClientTransport(mcpUrl()))
    return client
  }

  it('negotiates 2026-07-28, lists and calls; the 2025 client beside it still gets a session', async () => {
    const client = await modernClient()
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['weather-tool', 'book-flight']))
    const result = await client.callTool({ name: 'weather-tool', arguments: { location: 'Oslo' } })
    expect(result.structuredContent).toEqual({ location: 'Oslo', temperatureCelsius: 21, conditions: 'sunny' })
    const { transport } = await sdkClient(() => ({ action: 'accept', content: { confirm: true, quantity: 1 } }))
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('resumes a suspended run through input_required: the durable run completes once', async () => {
    const client = await modernClient(() => ({ action: 'accept', content: { seat: '14C' } }))
    const result = await client.callTool({ name: 'book-flight', arguments: { from: 'LIS', to: 'OSL' } })
    expect(result.structuredContent).toEqual({ confirmation: 'LIS-OSL-14C', seat: '14C' })
    const { runId } = result._meta?.['toolroute/run'] as { runId: string }
    const run = await fetch(new URL(`/runs/${runId}`, inject('baseUrl')))
    expect(await run.json()).toMatchObject({ status: 'completed', output: { seat: '14C' } })
  })
})
