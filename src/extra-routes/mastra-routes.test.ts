import { bearerAuth } from 'hono/bearer-auth'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'
import { createToolApp as createHttpToolApp } from '../http/create-tool-app.ts'
import type { ToolAppFeatures } from '../http/tool-app-features.ts'
import type { ToolAppOptions } from '../http/tool-app-options.ts'
import { idempotentCall } from '../http/idempotent-call.ts'
import { mountMastraRoutes } from './mastra-routes.ts'
import { createMemoryIdempotencyStore } from '../store/memory/memory-idempotency-store.ts'
import { createMemoryRunHost } from '../store/memory/create-memory-run-host.ts'

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

// The app as a composer makes it with Mastra's routes passed in (`toolroute/server`, the generated Worker entry).
const createToolApp = (options: ToolAppOptions, features: ToolAppFeatures = {}) => createHttpToolApp(options, { mastra: mountMastraRoutes, ...features })

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

  it('is one pass through the app: middleware runs once, the call is the app’s own', async () => {
    let passes = 0
    const app = createToolApp({ tools: [echo], auth: async (_c, next) => (passes++, await next()) })
    const response = await app.request('/api/tools/echo/execute', execute({ data: { text: 'hi' }, requestContext: { tenant: 't1' } }))
    expect(await response.json()).toEqual({ text: 'hi', tenant: 't1' })
    expect(response.headers.get('x-run-id')).toBeTruthy()
    expect(passes).toBe(1)
    const invalid = await app.request('/api/tools/echo/execute', execute({ data: { text: 1 } }))
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toMatchObject({ error: { code: 'INPUT_VALIDATION_FAILED', issues: [{ path: ['text'] }] } })
  })

  it('keeps an Idempotency-Key: a repeat replays the first call, other data is refused', async () => {
    let runs = 0
    const counted = createTool({ id: 'counted', description: 'Counts', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => ({ n, runs: ++runs }) })
    const app = createToolApp({ tools: [counted] }, { runs: createMemoryRunHost, idempotency: { call: idempotentCall, keys: createMemoryIdempotencyStore } })
    const keyed = (n: number) => app.request('/api/tools/counted/execute', execute({ data: { n } }, { 'idempotency-key': 'k1' }))
    const first = await keyed(1)
    expect(first.status).toBe(200)
    const firstBody = await first.json()
    const repeat = await keyed(1)
    expect(repeat.headers.get('idempotent-replayed')).toBe('true')
    expect(await repeat.json()).toEqual(firstBody)
    expect(runs).toBe(1)
    const other = await keyed(2)
    expect(other.status).toBe(422)
    expect(await other.json()).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } })
  })
})
