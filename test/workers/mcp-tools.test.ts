import { SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { eventually, readProbe } from './http-client.ts'
import { closeAll, connectMcp, textOf } from './mcp-client.ts'

afterEach(closeAll)

describe('MCP tools/list', () => {
  it('lists every tool with its id as name, schemas, annotations (with title) and _meta', async () => {
    const { client } = await connectMcp()
    const { tools } = await client.listTools()
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['weather-tool', 'chart-tool', 'delete-file', 'book-flight', 'lookup-customer', 'confirm-order']))

    const weather = byName.get('weather-tool')!
    expect(weather.description).toBe('Get the current weather for a location')
    expect(weather.inputSchema).toMatchObject({ type: 'object', properties: { location: { type: 'string', description: 'City name' } }, required: ['location'] })
    expect(weather.outputSchema).toMatchObject({ type: 'object', required: ['location', 'temperatureCelsius', 'conditions'] })
    expect(weather.annotations).toBeUndefined()

    const deleteFile = byName.get('delete-file')!
    expect(deleteFile.title).toBe('Delete file')
    expect(deleteFile.annotations).toEqual({ title: 'Delete file', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false })
    expect(deleteFile._meta).toEqual({ category: 'filesystem' })
  })
})

describe('MCP names of ids as Mastra allows them (SPEC §1)', () => {
  it("lists 'Lookup order' as Lookup_order (its title from the title option) and 'orders.lookup' as it is", async () => {
    const { client } = await connectMcp()
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['Lookup_order', 'orders.lookup']))
    expect(names).not.toContain('Lookup order')
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/)
    expect(tools.find((tool) => tool.name === 'Lookup_order')).toMatchObject({ title: 'Look up an order', description: 'Finds an order by number' })
  })

  it('calls it by its MCP name; the id itself is not an MCP name', async () => {
    const { client } = await connectMcp()
    const result = await client.callTool({ name: 'Lookup_order', arguments: { orderNumber: 'A-1' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ orderNumber: 'A-1', fields: [], agentId: '' })
    await expect(client.callTool({ name: 'Lookup order', arguments: { orderNumber: 'A-1' } })).rejects.toMatchObject({ code: -32602 })
  })
})

describe('MCP tools/call', () => {
  it('returns the output as structuredContent and the model output as content', async () => {
    const { client } = await connectMcp()
    const result = await client.callTool({ name: 'weather-tool', arguments: { location: 'Lisbon' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ location: 'Lisbon', temperatureCelsius: 21, conditions: 'sunny' })
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ location: 'Lisbon', temperatureCelsius: 21, conditions: 'sunny' }) }])
    expect(result._meta?.['toolroute/run']).toMatchObject({ status: 'completed', runId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
  })

  it('turns toModelOutput image parts into MCP image blocks', async () => {
    const { client } = await connectMcp()
    const result = await client.callTool({ name: 'chart-tool', arguments: { quarter: 'Q3' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ quarter: 'Q3', total: 1500 })
    expect(result.content).toEqual([
      { type: 'text', text: 'Sales chart for Q3: total 1500' },
      { type: 'image', data: expect.stringMatching(/^iVBOR/), mimeType: 'image/png' },
    ])
  })

  it('answers invalid arguments with an isError result; execute never runs', async () => {
    const { client } = await connectMcp()
    const result = await client.callTool({ name: 'weather-tool', arguments: { location: 42 } })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    expect(textOf(result)).toMatch(/^INPUT_VALIDATION_FAILED: Tool input validation failed for weather-tool/)
    expect(textOf(result)).toContain('location')
    expect(result._meta?.['toolroute/error']).toMatchObject({ code: 'INPUT_VALIDATION_FAILED', issues: [expect.objectContaining({ path: ['location'] })] })
  })

  it('treats missing arguments as an empty object, validated like any other', async () => {
    const { client } = await connectMcp()
    const result = await client.callTool({ name: 'weather-tool' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^INPUT_VALIDATION_FAILED/)
  })

  it('answers a thrown error with an isError result carrying its message, no stack', async () => {
    const { client } = await connectMcp()
    const result = await client.callTool({ name: 'failing-tool', arguments: { message: 'disk on fire' } })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe('EXECUTION_FAILED: disk on fire')
    expect(textOf(result)).not.toMatch(/\bat\b.*\.ts/)
  })

  it('answers output that breaks its schema with OUTPUT_VALIDATION_FAILED', async () => {
    const { client } = await connectMcp()
    const result = await client.callTool({ name: 'bad-output-tool', arguments: {} })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^OUTPUT_VALIDATION_FAILED/)
    expect(textOf(result)).not.toContain('Returned output')
    expect(textOf(result)).not.toContain('many')
  })

  it('answers an unknown tool with -32602 Invalid Params, as the MCP spec lists it', async () => {
    const { client } = await connectMcp()
    await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('no-such-tool') })
  })
})

describe('MCP request context', () => {
  it('validates x-request-context against the tool schema, as over HTTP', async () => {
    const { client } = await connectMcp()
    const missing = await client.callTool({ name: 'lookup-customer', arguments: { email: 'ada@example.com' } })
    expect(missing.isError).toBe(true)
    expect(textOf(missing)).toMatch(/^REQUEST_CONTEXT_VALIDATION_FAILED/)
    expect(textOf(missing)).toContain('tenantId')
  })

  it('passes the validated context to execute', async () => {
    const { client } = await connectMcp({ headers: { 'x-request-context': JSON.stringify({ tenantId: 'acme' }) } })
    const result = await client.callTool({ name: 'lookup-customer', arguments: { email: 'ada@example.com' } })
    expect(result.isError).toBeFalsy()
    // The MCP caller is the calling app: it gets the raw output, not the display view.
    expect(result.structuredContent).toMatchObject({ id: 'cus_acme_42', email: 'ada@example.com', internalNotes: expect.any(String) })
  })

  it('refuses a malformed header per call, and never echoes secret values', async () => {
    const bad = await connectMcp({ headers: { 'x-request-context': '{not json' } })
    const result = await bad.client.callTool({ name: 'weather-tool', arguments: { location: 'Oslo' } })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^REQUEST_CONTEXT_VALIDATION_FAILED: x-request-context is not valid JSON/)

    const secret = await connectMcp({ headers: { 'x-request-context': JSON.stringify({ tenantId: 7, apiToken: 'hunter2-secret' }) } })
    const refused = await secret.client.callTool({ name: 'lookup-customer', arguments: { email: 'ada@example.com' } })
    expect(refused.isError).toBe(true)
    expect(JSON.stringify(refused)).not.toContain('hunter2-secret')
  })

  it('cannot be forged through the internal caller header', async () => {
    const forged = encodeURIComponent(JSON.stringify({ requestContext: { tenantId: 'victim' }, principal: null }))
    const { client } = await connectMcp({ headers: { 'x-toolroute-mcp-caller': forged } })
    const result = await client.callTool({ name: 'lookup-customer', arguments: { email: 'ada@example.com' } })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^REQUEST_CONTEXT_VALIDATION_FAILED/)
  })
})

describe('JSON-RPC errors at /mcp, with the codes the spec gives them', () => {
  const post = (body: string) =>
    SELF.fetch('http://tools.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body })

  it('-32700 for a body that is not JSON, -32600 for JSON that is not JSON-RPC and for an empty batch', async () => {
    const parse = await post('{"jsonrpc": "2.0",')
    expect(await parse.json()).toMatchObject({ error: { code: -32700 } })
    const notRpc = await post('{"hello":"world"}')
    expect(notRpc.status).toBe(400)
    expect(await notRpc.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null })
    const empty = await post('[]')
    expect(empty.status).toBe(400)
    expect(await empty.json()).toMatchObject({ error: { code: -32600 } })
  })

  it('-32602 for tools/call without a name, naming the field and no schema dump', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } }))
    const body = (await response.json()) as { id: number; error: { code: number; message: string } }
    expect(body).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringContaining('"name"') } })
    expect(body.error.message).not.toMatch(/invalid_type|expected/)
  })
})

describe('MCP 2025 requests, as each revision has them', () => {
  const post = (body: unknown, version?: string) =>
    SELF.fetch('http://tools.test/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(version ? { 'mcp-protocol-version': version } : {}) },
      body: JSON.stringify(body),
    })
  const initialize = (protocolVersion: string) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })

  it('refuses a JSON-RPC batch from 2025-06-18 (which removed them) and a batched initialize at any revision; 2025-03-26 still has batches', async () => {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' }
    for (const version of ['2025-11-25', '2025-06-18']) {
      const batch = await post([list], version)
      expect(batch.status).toBe(400)
      expect(await batch.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining('batches') } })
    }
    const batchedInitialize = await post([initialize('2025-03-26')])
    expect(batchedInitialize.status).toBe(400)
    expect(await batchedInitialize.json()).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringContaining('initialize') } })
    const old = await post([list, { ...list, id: 3 }], '2025-03-26')
    expect(old.status).toBe(200)
    expect(await old.json()).toEqual([2, 3].map((id) => expect.objectContaining({ id, result: expect.objectContaining({ tools: expect.any(Array) }) })))
    // A batch of one is answered as a batch too (JSON-RPC 2.0: an array), not with the bare response.
    const one = await post([list], '2025-03-26')
    expect(await one.json()).toEqual([expect.objectContaining({ id: 2, result: expect.objectContaining({ tools: expect.any(Array) }) })])
  })

  it('announces tasks (and lists taskSupport) only from 2025-11-25, and serves tasks/* only there', async () => {
    // Every initialize opens a session (#45), whose answers come as SSE: the one `data:` line is the result.
    const capabilities = async (version: string) => {
      const data = (await (await post(initialize(version))).text()).split('\n').find((line) => line.startsWith('data: {'))!
      return (JSON.parse(data.slice('data: '.length)) as { result: { capabilities: Record<string, unknown> } }).result.capabilities
    }
    expect(await capabilities('2025-11-25')).toHaveProperty('tasks')
    for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) expect(await capabilities(version)).not.toHaveProperty('tasks')
    const listed = async (version: string) => ((await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, version)).json()) as { result: { tools: { name: string; execution?: unknown }[] } }).result.tools
    expect((await listed('2025-11-25')).find((tool) => tool.name === 'generate-report')?.execution).toEqual({ taskSupport: 'optional' })
    expect((await listed('2025-06-18')).find((tool) => tool.name === 'generate-report')).not.toHaveProperty('execution')
    const get = await post({ jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId: crypto.randomUUID() } }, '2025-06-18')
    expect(await get.json()).toMatchObject({ id: 3, error: { code: -32601 } })
  })

  it('-32602 in a sentence for arguments that are not an object, and protocol errors without a library prefix', async () => {
    for (const args of [[1, 2], 'text', 7, null]) {
      const response = await post({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'weather-tool', arguments: args } }, '2025-11-25')
      const body = (await response.json()) as { error: { code: number; message: string } }
      expect(body.error).toEqual({ code: -32602, message: 'Invalid params: tools/call "arguments" must be an object of named arguments' })
    }
    const unknown = await post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'no-such-tool', arguments: {} } }, '2025-11-25')
    const body = (await unknown.json()) as { error: { code: number; message: string } }
    expect(body.error).toMatchObject({ code: -32602, message: 'Unknown tool: no-such-tool' })
  })
})

describe('notifications/cancelled (2025 leg)', () => {
  /** Starts a long `abort-recorder` call, cancels it from the client: it is aborted, never finished. */
  async function expectCancelAborts(client: Awaited<ReturnType<typeof connectMcp>>['client'], key: string) {
    const abort = new AbortController()
    const call = client.callTool({ name: 'abort-recorder', arguments: { key, ms: 20_000 } }, { signal: abort.signal })
    expect(await eventually(() => readProbe(key), (entries) => entries.includes('started'))).toContain('started')
    abort.abort(new Error('the user stopped it'))
    await expect(call).rejects.toThrow()
    const entries = await eventually(() => readProbe(key), (seen) => seen.some((entry) => entry.startsWith('aborted')))
    expect(entries.some((entry) => entry.startsWith('aborted'))).toBe(true)
    expect(entries).not.toContain('finished')
  }

  it('a session call is aborted by the client’s cancel, and its stream ends', async () => {
    const key = `cancel-session-${crypto.randomUUID()}`
    const { client, transport } = await connectMcp({ elicitation: () => ({ action: 'cancel' }) })
    expect(transport.sessionId).toBeTruthy()
    await expectCancelAborts(client, key)
  })

  it('a call without a session (no initialize) is aborted by its cancel too: both reach the Durable Object named by principal and request id', async () => {
    const key = `cancel-stateless-${crypto.randomUUID()}`
    const post = (body: unknown) =>
      SELF.fetch('http://tools.test/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: 'Bearer stateless-canceller' },
        body: JSON.stringify(body),
      })
    const call = post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'abort-recorder', arguments: { key, ms: 20_000 } } })
    expect(await eventually(() => readProbe(key), (entries) => entries.includes('started'))).toContain('started')
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'stop' } })).status).toBe(202)
    expect((await call).status).toBe(202)
    const entries = await eventually(() => readProbe(key), (seen) => seen.some((entry) => entry.startsWith('aborted')))
    expect(entries).not.toContain('finished')
  })

  it("another principal's cancel with the same request id does not reach the call", async () => {
    const key = `cancel-foreign-${crypto.randomUUID()}`
    const { client } = await connectMcp({ headers: { authorization: 'Bearer owner-of-call' } })
    const call = client.callTool({ name: 'abort-recorder', arguments: { key, ms: 300 } })
    expect(await eventually(() => readProbe(key), (entries) => entries.includes('started'))).toContain('started')
    // The client's requests so far: initialize (0), then the call; a stranger cancels every low id.
    for (const requestId of [0, 1, 2, 3]) {
      const response = await SELF.fetch('http://tools.test/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: 'Bearer stranger' },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'not yours' } }),
      })
      expect(response.status).toBe(202)
    }
    expect((await call).isError).toBeFalsy()
    expect(await readProbe(key)).toContain('finished')
  })
})

describe('MCP methods no transport has', () => {
  it('answers PUT and PATCH /mcp with 405, not a tool route\'s 404', async () => {
    for (const method of ['PUT', 'PATCH']) {
      const response = await SELF.fetch('http://tools.test/mcp', { method, headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('POST, DELETE')
    }
  })
})
