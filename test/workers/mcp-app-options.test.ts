import { afterEach, describe, expect, it } from 'vitest'
import { bearerAuth } from 'hono/bearer-auth'
import { createToolApp } from 'toolroute/server'
import { askName } from '../fixtures/mcp-tools.ts'
import { deleteFile } from '../../tools/delete-file.ts'
import { lookupCustomer } from '../../tools/lookup-customer.ts'
import { weatherTool } from '../../tools/weather-tool.ts'
import { closeAll, connectMcp, textOf } from './mcp-client.ts'

afterEach(closeAll)

const tools = [weatherTool, lookupCustomer, deleteFile, askName]
const fetchOf = (app: { fetch: (request: Request) => Response | Promise<Response> }) => async (url: string | URL, init?: RequestInit) =>
  app.fetch(new Request(url, init))

describe('MCP with createToolApp options', () => {
  it("applies the app's auth to /mcp", async () => {
    const app = createToolApp({ tools, auth: bearerAuth({ token: 's3cret' }) })
    const raw = await app.fetch(new Request('http://tools.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
    expect(raw.status).toBe(401)
    expect(await raw.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Unauthorized' } })
    await expect(connectMcp({ fetch: fetchOf(app) })).rejects.toThrow(/UNAUTHORIZED/)
    await expect(connectMcp({ fetch: fetchOf(app), headers: { authorization: 'Bearer wrong' } })).rejects.toThrow(/UNAUTHORIZED/)
    const { client } = await connectMcp({ fetch: fetchOf(app), headers: { authorization: 'Bearer s3cret' } })
    const result = await client.callTool({ name: 'weather-tool', arguments: { location: 'Rome' } })
    expect(result.structuredContent).toMatchObject({ location: 'Rome' })
  })

  it('takes the request context from the resolver, which wins over the header', async () => {
    const app = createToolApp({ tools, resolveRequestContext: (c) => ({ tenantId: `from-auth-${c.req.header('x-user') ?? 'none'}` }) })
    const { client } = await connectMcp({
      fetch: fetchOf(app),
      headers: { 'x-user': 'u1', 'x-request-context': JSON.stringify({ tenantId: 'forged' }) },
    })
    const result = await client.callTool({ name: 'lookup-customer', arguments: { email: 'ada@example.com' } })
    expect(result.structuredContent).toMatchObject({ id: 'cus_from-auth-u1_42' })
  })

  it('serves statelessly with sessions: false (what createWorker passes without its binding): no session, tools cannot ask', async () => {
    const app = createToolApp({ tools, mcp: { sessions: false } })
    const { client, transport } = await connectMcp({ fetch: fetchOf(app), elicitation: () => ({ action: 'accept', content: { approved: true } }) })
    expect(transport.sessionId).toBeUndefined()
    const asked = await client.callTool({ name: 'ask-name', arguments: {} })
    expect(asked.isError).toBe(true)
    const approval = await client.callTool({ name: 'delete-file', arguments: { path: '/x' } })
    expect(approval.isError).toBe(true)
    expect(textOf(approval)).toMatch(/POST \/runs\/[0-9a-f-]{36}\/approve/)
  })

  it('keeps sessions in memory by default, inside workerd too: the adapter passes its choice, nothing sniffs the runtime', async () => {
    const app = createToolApp({ tools })
    const { client, transport } = await connectMcp({ fetch: fetchOf(app), elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) })
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    expect((await client.callTool({ name: 'ask-name', arguments: {} })).structuredContent).toMatchObject({ text: 'Hello, Ada' })
  })

  it('names routes under the base path', async () => {
    const app = createToolApp({ tools, basePath: '/api' })
    const { client } = await connectMcp({ fetch: fetchOf(app), url: 'http://tools.test/api/mcp' })
    const approval = await client.callTool({ name: 'delete-file', arguments: { path: '/x' } })
    expect(textOf(approval)).toMatch(/POST \/api\/runs\/[0-9a-f-]{36}\/approve/)
  })

  it('serves no /mcp when mcp is false', async () => {
    const app = createToolApp({ tools, mcp: false })
    const response = await app.fetch(new Request('http://tools.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
    expect(response.status).toBe(404)
  })
})
