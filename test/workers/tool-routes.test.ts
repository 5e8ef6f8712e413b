import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { callTool, origin } from './http-client.ts'

type Descriptor = { id: string; description: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown>; requireApproval: unknown }

describe('GET /tools', () => {
  it('lists every tool of tools/ with JSON Schema descriptors', async () => {
    const response = await SELF.fetch(`${origin}/tools`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const { tools } = (await response.json()) as { tools: Descriptor[] }
    const ids = tools.map((tool) => tool.id)
    for (const id of ['weather-tool', 'weather-tool-valibot', 'weather-tool-arktype', 'lookup-customer', 'book-flight', 'chart-tool']) {
      expect(ids).toContain(id)
    }
    expect(new Set(ids).size).toBe(ids.length)
    const weather = tools.find((tool) => tool.id === 'weather-tool')!
    expect(weather).toMatchObject({
      description: 'Get the current weather for a location',
      inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
      outputSchema: { type: 'object', required: expect.arrayContaining(['location', 'temperatureCelsius', 'conditions']) },
      requireApproval: false,
      inputExamples: [{ input: { location: 'Lisbon' } }],
    })
  })
})

describe('GET /tools/:toolId', () => {
  it('answers one descriptor, the same as in the list', async () => {
    const list = (await (await SELF.fetch(`${origin}/tools`)).json()) as { tools: Descriptor[] }
    const response = await SELF.fetch(`${origin}/tools/lookup-customer`)
    expect(response.status).toBe(200)
    const descriptor = (await response.json()) as Descriptor & { requestContextSchema?: unknown }
    expect(descriptor).toEqual(list.tools.find((tool) => tool.id === 'lookup-customer'))
    expect(descriptor.requestContextSchema).toMatchObject({ properties: { tenantId: { type: 'string' } } })
  })

  it('answers TOOL_NOT_FOUND for an unknown id', async () => {
    const response = await SELF.fetch(`${origin}/tools/no-such-tool`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: { code: 'TOOL_NOT_FOUND', message: expect.stringContaining('no-such-tool') } })
  })
})

describe('POST /tools/:toolId (JSON)', () => {
  it('runs the tool and answers 200 with output and modelOutput', async () => {
    const response = await callTool('weather-tool', { location: 'Paris' })
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, unknown>
    const output = { location: 'Paris', temperatureCelsius: 21, conditions: 'sunny' }
    expect(body).toEqual({
      runId: response.headers.get('x-run-id'),
      toolCallId: response.headers.get('x-tool-call-id'),
      status: 'completed',
      output,
      modelOutput: { type: 'json', value: output },
    })
  })

  it('answers toModelOutput as modelOutput, and the raw output', async () => {
    const response = await callTool('chart-tool', { quarter: 'Q3' })
    const body = (await response.json()) as { output: { total: number; png: string }; modelOutput: { type: string; value: unknown[] } }
    expect(body.output).toMatchObject({ quarter: 'Q3', total: 1500 })
    expect(body.modelOutput).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'Sales chart for Q3: total 1500' },
        { type: 'image-data', data: body.output.png, mediaType: 'image/png' },
      ],
    })
  })

  it('serves Valibot and ArkType tools the same way', async () => {
    for (const id of ['weather-tool-valibot', 'weather-tool-arktype']) {
      const ok = await callTool(id, { location: 'Oslo' })
      expect(ok.status, id).toBe(200)
      expect(((await ok.json()) as { output: { location: string } }).output.location).toBe('Oslo')
      const bad = await callTool(id, { location: 7 })
      expect(bad.status, id).toBe(400)
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INPUT_VALIDATION_FAILED')
    }
  })

  it('treats null for an optional field as absent', async () => {
    const response = await callTool('audited-search', { query: 'runs', limit: null })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { output: { results: unknown[] } }).output.results).toHaveLength(3)
  })

  it('generates a run id and a tool call id per call, in headers and body', async () => {
    const first = await callTool('weather-tool', { location: 'Rome' })
    const second = await callTool('weather-tool', { location: 'Rome' })
    for (const response of [first, second]) {
      expect(response.headers.get('x-run-id')).toMatch(/^\S{20,}$/)
      expect(response.headers.get('x-tool-call-id')).toMatch(/^\S+$/)
    }
    expect(first.headers.get('x-run-id')).not.toBe(second.headers.get('x-run-id'))
    expect(first.headers.get('x-tool-call-id')).not.toBe(second.headers.get('x-tool-call-id'))
  })

  it("honours the caller's x-tool-call-id, in headers, body, events and hooks", async () => {
    const toolCallId = 'call_from_the_agent_42'
    const response = await callTool('input-recorder', { text: 'hi' }, { headers: { 'x-tool-call-id': toolCallId } })
    expect(response.headers.get('x-tool-call-id')).toBe(toolCallId)
    const body = (await response.json()) as { toolCallId: string; output: { hooks: string[] } }
    expect(body.toolCallId).toBe(toolCallId)
    expect(body.output.hooks[0]).toBe('start')

    const sse = await callTool('weather-tool', { location: 'Rome' }, { sse: true, headers: { 'x-tool-call-id': toolCallId } })
    expect(sse.headers.get('x-tool-call-id')).toBe(toolCallId)
    expect(await sse.text()).toContain(`"toolCallId":"${toolCallId}"`)
  })

  it('answers 202 with an approvalId for a tool that needs approval', async () => {
    const response = await callTool('delete-file', { path: '/tmp/a.txt' })
    expect(response.status).toBe(202)
    expect(await response.json()).toEqual({
      runId: response.headers.get('x-run-id'),
      toolCallId: response.headers.get('x-tool-call-id'),
      status: 'approval-required',
      approvalId: expect.any(String),
    })
  })

  it('answers 202 with suspendPayload and resumeSchema for a tool that suspends', async () => {
    const response = await callTool('book-flight', { from: 'LIS', to: 'OSL' })
    expect(response.status).toBe(202)
    expect(await response.json()).toMatchObject({
      status: 'suspended',
      suspendPayload: { question: 'Which seat on LIS→OSL?', seats: ['12A', '12B', '14C'] },
      resumeSchema: { type: 'object', properties: { seat: { type: 'string' } } },
    })
  })
})

describe('GET /openapi.json', () => {
  it('is served as JSON', async () => {
    const response = await SELF.fetch(`${origin}/openapi.json`)
    expect(response.status).toBe(200)
    expect(((await response.json()) as { openapi: string }).openapi).toBe('3.1.0')
  })
})

describe('ids as Mastra allows them (SPEC §1: the route is /tools/<encodeURIComponent(id)>)', () => {
  it("serves 'Lookup order' at /tools/Lookup%20order, with agentId '' on its context", async () => {
    const response = await callTool(encodeURIComponent('Lookup order'), { orderNumber: 'A-1', fields: '["status"]' })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { output: unknown }
    // The model habit of a JSON string for an array field is repaired over HTTP too.
    expect(body.output).toEqual({ orderNumber: 'A-1', fields: ['status'], agentId: '' })
  })

  it('describes it at the same route, and lists it under its own id', async () => {
    const response = await SELF.fetch(`${origin}/tools/Lookup%20order`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ id: 'Lookup order', description: 'Finds an order by number' })
    const { tools } = (await (await SELF.fetch(`${origin}/tools`)).json()) as { tools: Descriptor[] }
    expect(tools.map((tool) => tool.id)).toEqual(expect.arrayContaining(['Lookup order', 'orders.lookup']))
  })

  it('serves a dotted id as it is', async () => {
    const response = await callTool('orders.lookup', { orderNumber: 'B-2' })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { output: unknown }).output).toEqual({ orderNumber: 'B-2' })
  })

  it('the MCP name is not a route: /tools/Lookup_order is TOOL_NOT_FOUND', async () => {
    const response = await callTool('Lookup_order', { orderNumber: 'A-1' })
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } })
  })

  it('OpenAPI has the encoded path, and the Mastra route executes it', async () => {
    const openapi = (await (await SELF.fetch(`${origin}/openapi.json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/tools/Lookup%20order', '/tools/orders.lookup']))
    const response = await SELF.fetch(`${origin}/api/tools/Lookup%20order/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { orderNumber: 'C-3' } }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ orderNumber: 'C-3', fields: [] })
  })
})
