// toolroute.config.ts: one file at a project's root sets the app's options. A fixture project in
// a temporary directory (tools/, toolroute.config.ts, wrangler.toml whose [build] runs
// `toolroute build`) is bundled by `wrangler deploy --dry-run`, as a deploy would, and served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DirectWorkerd } from './direct-workerd.ts'
import { fixtureProject } from './fixture-project.ts'

let server: DirectWorkerd

const files: Record<string, string> = {
  'tools/echo-tool.ts': `import { createTool } from 'toolroute'
import { z } from 'zod'

export const echoTool = createTool({
  id: 'echo-tool',
  description: 'Echoes its text and the tenant it runs for',
  inputSchema: z.object({ text: z.string() }),
  requestContextSchema: z.object({ tenantId: z.string() }),
  execute: async ({ text }, { requestContext }) => ({ text, tenantId: requestContext.get('tenantId') }),
})
`,
  'toolroute.config.ts': `import { bearerAuth } from 'hono/bearer-auth'
import { defineConfig } from 'toolroute/workers'

export default defineConfig({
  basePath: '/api',
  auth: bearerAuth({ token: 'config-token' }),
  resolveRequestContext: (c) => (c.req.header('authorization') ? { tenantId: 'tenant-of-token' } : undefined),
  maxInputBytes: 256,
  cors: { origin: 'https://app.example' },
  playground: false,
})
`,
}

const project = fixtureProject('config', files, { idempotencyBinding: true })

beforeAll(async () => {
  server = await project.start()
})
afterAll(async () => {
  await server?.stop()
  project.remove()
})

const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
const token = { authorization: 'Bearer config-token' }

describe('toolroute.config.ts', () => {
  it('basePath: routes live under it only', async () => {
    expect((await call('/api/tools/echo-tool', { text: 'hi' }, token)).status).toBe(200)
    expect((await call('/tools/echo-tool', { text: 'hi' }, token)).status).toBe(404)
    const document = (await (await fetch(`${server.url}/api/openapi.json`, { headers: token })).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths)).toContain('/api/tools/echo-tool')
  })

  it('auth: a request without the token gets 401 UNAUTHORIZED', async () => {
    const response = await call('/api/tools/echo-tool', { text: 'hi' })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } })
  })

  it('resolveRequestContext: the context comes from auth and wins over the header', async () => {
    const response = await call('/api/tools/echo-tool', { text: 'hi' }, { ...token, 'x-request-context': JSON.stringify({ tenantId: 'forged' }) })
    expect(await response.json()).toMatchObject({ output: { text: 'hi', tenantId: 'tenant-of-token' } })
  })

  it('maxInputBytes: a larger body is refused', async () => {
    const response = await call('/api/tools/echo-tool', { text: 'x'.repeat(300) }, token)
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } })
  })

  it('playground: false turns GET / off, even on a local host', async () => {
    const response = await fetch(`${server.url}/api`, { headers: token })
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } })
  })

  it('cors: its origin is allowed, with the run headers exposed', async () => {
    const response = await call('/api/tools/echo-tool', { text: 'hi' }, { ...token, origin: 'https://app.example' })
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(response.headers.get('access-control-expose-headers')).toContain('x-run-id')
  })
})
