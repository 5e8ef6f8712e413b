// createToolApp's options, each on its own app (app.request, inside workerd): what a deployment
// sets in toolroute.config.ts.
import { Hono, type MiddlewareHandler } from 'hono'
import { bearerAuth } from 'hono/bearer-auth'
import { describe, expect, it } from 'vitest'
import { createToolApp } from 'toolroute/server'
import { tools } from '../../.toolroute/tools.ts'
import { testTools } from '../fixtures/test-tools.ts'

const allTools = [...tools, ...testTools]
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
const codeOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code

describe('basePath', () => {
  const app = createToolApp({ tools: allTools, basePath: '/api/v1' })

  it('mounts every route under it', async () => {
    expect((await app.request('/api/v1/tools')).status).toBe(200)
    expect((await app.request('/api/v1/tools/weather-tool')).status).toBe(200)
    const call = await app.request('/api/v1/tools/weather-tool', json({ location: 'Paris' }))
    expect(call.status).toBe(200)
    expect(await call.json()).toMatchObject({ status: 'completed', output: { location: 'Paris' } })
  })

  it('serves nothing outside it', async () => {
    expect((await app.request('/tools')).status).toBe(404)
    expect((await app.request('/tools/weather-tool', json({ location: 'Paris' }))).status).toBe(404)
  })

  it('puts it in the OpenAPI paths', async () => {
    const document = (await (await app.request('/api/v1/openapi.json')).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths)).toContain('/api/v1/tools/weather-tool')
    expect(Object.keys(document.paths)).not.toContain('/tools/weather-tool')
  })
})

describe('resolveRequestContext', () => {
  it('wins over the x-request-context header', async () => {
    const app = createToolApp({ tools: allTools, resolveRequestContext: () => ({ tenantId: 'from-auth' }) })
    const response = await app.request('/tools/lookup-customer', json({ email: 'ada@example.com' }, { 'x-request-context': JSON.stringify({ tenantId: 'from-header' }) }))
    expect(response.status).toBe(200)
    expect(((await response.json()) as { output: { id: string } }).output.id).toBe('cus_from-auth_42')
  })

  it('wins even over a header that is not JSON', async () => {
    const app = createToolApp({ tools: allTools, resolveRequestContext: () => ({ tenantId: 'from-auth' }) })
    const response = await app.request('/tools/lookup-customer', json({ email: 'ada@example.com' }, { 'x-request-context': '{not json' }))
    expect(response.status).toBe(200)
  })

  it('falls back to the header when it returns undefined', async () => {
    const app = createToolApp({ tools: allTools, resolveRequestContext: (c) => (c.req.header('authorization') ? { tenantId: 'from-auth' } : undefined) })
    const response = await app.request('/tools/lookup-customer', json({ email: 'ada@example.com' }, { 'x-request-context': JSON.stringify({ tenantId: 'from-header' }) }))
    expect(((await response.json()) as { output: { id: string } }).output.id).toBe('cus_from-header_42')
  })

  it('is validated against requestContextSchema like the header', async () => {
    const app = createToolApp({ tools: allTools, resolveRequestContext: async (c) => ({ tenantId: c.req.header('x-user') ?? 7 }) })
    const response = await app.request('/tools/lookup-customer', json({ email: 'ada@example.com' }))
    expect(response.status).toBe(400)
    expect(await codeOf(response)).toBe('REQUEST_CONTEXT_VALIDATION_FAILED')
  })
})

describe('auth', () => {
  const app = createToolApp({ tools: allTools, auth: bearerAuth({ token: 'let-me-in' }) })

  it('answers UNAUTHORIZED (401, the spec error shape) when hono/bearer-auth refuses', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', 'Basic dXNlcjpwYXNz', 'Bearer']) {
      const response = await app.request('/tools/weather-tool', json({ location: 'Paris' }, authorization ? { authorization } : {}))
      expect(response.status, authorization).toBe(401)
      expect(await response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } })
      expect(response.headers.get('www-authenticate'), authorization).toMatch(/^Bearer /)
    }
  })

  it('guards every route, and comes before the tool lookup (no existence leak)', async () => {
    for (const [path, init] of [
      ['/tools', undefined],
      ['/tools/weather-tool', undefined],
      ['/openapi.json', undefined],
      ['/tools/no-such-tool', json({})],
      ['/runs/some-run', undefined],
    ] as const) {
      const response = await app.request(path, init)
      expect(response.status, path).toBe(401)
    }
  })

  it('lets the right token through', async () => {
    const response = await app.request('/tools/weather-tool', json({ location: 'Paris' }, { authorization: 'Bearer let-me-in' }))
    expect(response.status).toBe(200)
  })

  it('maps any middleware that answers 401 itself to the spec shape, and accepts a list', async () => {
    const apiKey: MiddlewareHandler = async (c, next) => {
      if (c.req.header('x-api-key') !== 'k1') return c.text('go away', 401)
      await next()
    }
    const tagged: MiddlewareHandler = async (c, next) => {
      await next()
      c.header('x-checked', 'yes')
    }
    const guarded = createToolApp({ tools: allTools, auth: [apiKey, tagged] })
    const refused = await guarded.request('/tools/weather-tool', json({ location: 'Paris' }))
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } })
    const allowed = await guarded.request('/tools/weather-tool', json({ location: 'Paris' }, { 'x-api-key': 'k1' }))
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('x-checked')).toBe('yes')
  })

  it('knows an HTTPException from another copy of Hono (an app whose hono is not toolroute\'s) by its shape', async () => {
    // What `npm install hono` beside toolroute can give: the app's middleware throws its own copy's class.
    class HTTPException extends Error {
      constructor(readonly status: number, options: { message: string; res?: Response }) {
        super(options.message)
        this.res = options.res
      }
      readonly res: Response | undefined
      getResponse(): Response {
        return this.res ?? new Response(this.message, { status: this.status })
      }
    }
    const refuse: MiddlewareHandler = async () => {
      throw new HTTPException(401, { message: 'no token', res: new Response('no', { status: 401, headers: { 'www-authenticate': 'Bearer realm="x"' } }) })
    }
    const refused = await createToolApp({ tools: allTools, auth: refuse }).request('/tools/weather-tool', json({ location: 'Paris' }))
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'no token' } })
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="x"')
    // Not a refusal (a rate limiter's 429): it answers its own response, as Hono's own handler does.
    const limited: MiddlewareHandler = async () => {
      throw new HTTPException(429, { message: 'slow down' })
    }
    const slowed = await createToolApp({ tools: allTools, auth: limited }).request('/tools/weather-tool', json({ location: 'Paris' }))
    expect(slowed.status).toBe(429)
    expect(await slowed.text()).toBe('slow down')
  })

  it('leaves errors of the routes behind it alone', async () => {
    const response = await app.request('/tools/weather-tool', json({ location: 1 }, { authorization: 'Bearer let-me-in' }))
    expect(response.status).toBe(400)
    expect(await codeOf(response)).toBe('INPUT_VALIDATION_FAILED')
  })
})

describe('maxInputBytes', () => {
  const app = createToolApp({ tools: allTools, maxInputBytes: 64 })

  it('refuses a declared length over it with PAYLOAD_TOO_LARGE', async () => {
    const response = await app.request('/tools/weather-tool', json({ location: 'x'.repeat(80) }))
    expect(response.status).toBe(413)
    expect(await codeOf(response)).toBe('PAYLOAD_TOO_LARGE')
  })

  it('refuses a chunked body once it grows past it', async () => {
    const encoder = new TextEncoder()
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of ['{"location":"', 'x'.repeat(40), 'x'.repeat(40), '"}']) controller.enqueue(encoder.encode(part))
        controller.close()
      },
    })
    const request = new Request('http://tools.test/tools/weather-tool', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit)
    expect(request.headers.get('content-length')).toBeNull() // no length up front: only counting the chunks can refuse it
    const response = await app.request(request)
    expect(response.status).toBe(413)
    expect(await codeOf(response)).toBe('PAYLOAD_TOO_LARGE')
  })

  it('accepts a body within it', async () => {
    expect((await app.request('/tools/weather-tool', json({ location: 'Paris' }))).status).toBe(200)
  })
})

describe('cors', () => {
  it('is off by default', async () => {
    const app = createToolApp({ tools: allTools })
    const response = await app.request('/tools', { headers: { origin: 'https://app.example' } })
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('answers preflights and exposes x-run-id / x-tool-call-id to browsers', async () => {
    const app = createToolApp({ tools: allTools, cors: true, auth: bearerAuth({ token: 't' }) })
    const preflight = await app.request('/tools/weather-tool', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization, x-request-context' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST')
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-request-context')
    const call = await app.request('/tools/weather-tool', json({ location: 'Paris' }, { origin: 'https://app.example', authorization: 'Bearer t' }))
    expect(call.status).toBe(200)
    expect(call.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = call.headers.get('access-control-expose-headers')?.toLowerCase() ?? ''
    expect(exposed).toContain('x-run-id')
    expect(exposed).toContain('x-tool-call-id')
    // A refused call still carries CORS headers, so the browser can read the 401.
    const refused = await app.request('/tools/weather-tool', json({ location: 'Paris' }, { origin: 'https://app.example' }))
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
  })

  it("takes hono/cors's options", async () => {
    const app = createToolApp({ tools: allTools, cors: { origin: 'https://app.example', credentials: true } })
    const response = await app.request('/tools', { headers: { origin: 'https://app.example' } })
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(response.headers.get('access-control-allow-credentials')).toBe('true')
    expect(response.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-run-id')
  })
})

describe('the app is a Hono app', () => {
  it('mounts inside another Hono app with app.route', async () => {
    const parent = new Hono()
    parent.get('/health', (c) => c.text('ok'))
    parent.route('/agents', createToolApp({ tools: allTools }))
    expect((await parent.request('/health')).status).toBe(200)
    const response = await parent.request('/agents/tools/weather-tool', json({ location: 'Paris' }))
    expect(response.status).toBe(200)
  })

  it('refuses two tools with one id', () => {
    const [weather] = tools.filter((tool) => tool.id === 'weather-tool')
    const twin = { ...weather! }
    expect(() => createToolApp({ tools: [weather!, twin] })).toThrow(/weather-tool/)
  })
})
