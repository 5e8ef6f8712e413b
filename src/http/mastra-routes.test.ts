import { bearerAuth } from 'hono/bearer-auth'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'
import { createToolApp } from './create-tool-app.ts'

const echo = createTool({
  id: 'echo',
  description: 'Echoes',
  inputSchema: z.object({ text: z.string() }),
  requestContextSchema: z.object({ tenant: z.string().optional() }),
  execute: async ({ text }, { requestContext }) => ({ text, tenant: requestContext.get('tenant') ?? null }),
})
const execute = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
})

describe('mountMastraRoutes in createToolApp', () => {
  it('serves under the app’s base path and dispatches to its own call route', async () => {
    const app = createToolApp({ tools: [echo], basePath: '/tools-api' })
    expect(Object.keys(await (await app.request('/tools-api/api/tools')).json())).toEqual(['echo'])
    const response = await app.request('/tools-api/api/tools/echo/execute?runId=r1', execute({ data: { text: 'hi' }, requestContext: { tenant: 't1' } }))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ text: 'hi', tenant: 't1' })
  })

  it('runs the app’s auth and resolver for Mastra requests too', async () => {
    const app = createToolApp({ tools: [echo], auth: bearerAuth({ token: 'secret' }), resolveRequestContext: () => ({ tenant: 'from-auth' }) })
    const refused = await app.request('/api/tools/echo/execute', execute({ data: { text: 'hi' } }))
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } })
    // The resolver wins over the body's request context, as it wins over the header.
    const allowed = await app.request('/api/tools/echo/execute', execute({ data: { text: 'hi' }, requestContext: { tenant: 'forged' } }, { authorization: 'Bearer secret' }))
    expect(await allowed.json()).toEqual({ text: 'hi', tenant: 'from-auth' })
  })

  it('is off with mastra: false', async () => {
    const app = createToolApp({ tools: [echo], mastra: false })
    expect((await app.request('/api/tools')).status).toBe(404)
    expect((await app.request('/api/tools/echo/execute', execute({ data: { text: 'hi' } }))).status).toBe(404)
  })
})
