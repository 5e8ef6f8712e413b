import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

/** Requests shaped exactly as `@mastra/client-js` sends them (its `request()`: JSON body, content-type set). */
const mastra = {
  listTools: () => SELF.fetch('http://tools.test/api/tools'),
  details: (toolId: string) => SELF.fetch(`http://tools.test/api/tools/${toolId}`),
  execute: (toolId: string, body: unknown, headers: Record<string, string> = {}) =>
    SELF.fetch(`http://tools.test/api/tools/${toolId}/execute?`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
}
const superjsonParse = (text: string) => (JSON.parse(text) as { json: unknown }).json

describe('Mastra compatibility routes', () => {
  it('lists tools keyed by id, with JSON Schemas as superjson text', async () => {
    const response = await mastra.listTools()
    expect(response.status).toBe(200)
    const tools = (await response.json()) as Record<string, { id: string; description: string; inputSchema: string; outputSchema?: string; requireApproval: boolean }>
    expect(tools['weather-tool']).toMatchObject({ id: 'weather-tool', description: 'Get the current weather for a location', requireApproval: false })
    expect(superjsonParse(tools['weather-tool']!.inputSchema)).toMatchObject({ type: 'object', properties: { location: { type: 'string' } }, required: ['location'] })
    expect(superjsonParse(tools['weather-tool']!.outputSchema!)).toMatchObject({ properties: { temperatureCelsius: { type: 'number' } } })
    expect(tools['delete-file']).toMatchObject({ requireApproval: true, mcp: { annotations: { destructiveHint: true } } })
    expect(tools['transfer-money']?.requireApproval).toBe(true)
  })

  it('answers one tool’s details, and TOOL_NOT_FOUND for an unknown one', async () => {
    expect(await (await mastra.details('book-flight')).json()).toMatchObject({ id: 'book-flight', inputSchema: expect.stringContaining('"json"') })
    const missing = await mastra.details('nope')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } })
  })

  it('executes with { data } and answers the tool’s result itself', async () => {
    const response = await mastra.execute('weather-tool', { data: { location: 'Lisbon' } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ location: 'Lisbon', temperatureCelsius: 21, conditions: 'sunny' })
    expect(response.headers.get('x-run-id')).toBeTruthy()
  })

  it('takes the request context from the body (requestContext, or the older runtimeContext)', async () => {
    const admin = await mastra.execute('transfer-money', { data: { amount: 500 }, requestContext: { userId: 'admin' } })
    expect(await admin.json()).toEqual({ transferred: 500, by: 'admin' })
    const legacy = await mastra.execute('transfer-money', { data: { amount: 5 }, runtimeContext: { userId: 'Zoë' } })
    expect(await legacy.json()).toEqual({ transferred: 5, by: 'Zoë' })
  })

  it('validates as the spec’s middleware does: same codes, and execute never runs', async () => {
    const invalid = await mastra.execute('weather-tool', { data: { location: '' } })
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toMatchObject({ error: { code: 'INPUT_VALIDATION_FAILED', issues: [{ path: ['location'] }] } })

    const noContext = await mastra.execute('transfer-money', { data: { amount: 5 } })
    expect(noContext.status).toBe(400)
    expect(await noContext.json()).toMatchObject({ error: { code: 'REQUEST_CONTEXT_VALIDATION_FAILED' } })
    const badContext = await mastra.execute('transfer-money', { data: { amount: 5 }, requestContext: ['admin'] })
    expect(await badContext.json()).toMatchObject({ error: { code: 'REQUEST_CONTEXT_VALIDATION_FAILED' } })

    const noData = await mastra.execute('weather-tool', { location: 'Lisbon' })
    expect(noData.status).toBe(400)
    expect(await noData.json()).toMatchObject({ error: { code: 'INPUT_VALIDATION_FAILED', issues: [{ path: ['data'], message: 'data is required' }] } })

    const notJson = await SELF.fetch('http://tools.test/api/tools/weather-tool/execute', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"data":' })
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toMatchObject({ error: { code: 'INVALID_JSON' } })

    const unknown = await mastra.execute('nope', { data: {} })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } })

    const thrown = await mastra.execute('failing-tool', { data: { message: 'boom' } })
    expect(thrown.status).toBe(500)
    expect(await thrown.json()).toEqual({ error: { code: 'EXECUTION_FAILED', message: 'boom' } })
  })

  it('keeps approval: a tool that requires it does not run, and its run waits', async () => {
    const response = await mastra.execute('delete-file', { data: { path: '/etc/hosts' } })
    expect(response.status).toBe(202)
    const body = (await response.json()) as { status: string; runId: string; approvalId: string }
    expect(body).toMatchObject({ status: 'approval-required', approvalId: expect.any(String) })
    const run = await SELF.fetch(`http://tools.test/runs/${body.runId}`)
    expect(await run.json()).toMatchObject({ status: 'approval-required', toolId: 'delete-file' })
  })

  it('answers suspension and background work with toolroute’s 202 JSON', async () => {
    const suspended = await mastra.execute('book-flight', { data: { from: 'LIS', to: 'OPO' } })
    expect(suspended.status).toBe(202)
    expect(await suspended.json()).toMatchObject({ status: 'suspended', suspendPayload: { seats: ['12A', '12B', '14C'] } })
    const running = await mastra.execute('generate-report', { data: { month: '2026-08', delayMs: 0 } })
    expect(running.status).toBe(202)
    expect(await running.json()).toMatchObject({ status: 'running' })
  })
})
