import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'
// toolroute/server's createToolApp: the Hono app with its in-memory runs (a suspended or approval run is stored).
import { createToolApp } from '../server.ts'

// A call whose context nothing else has touched writes its completed answer straight into a
// `Response` (call-tool.ts `jsonAnswer`); any other goes through Hono's `c.json`. Both must
// answer the same bytes, for every ending, and the straight write must never drop a header
// someone set on the context before it.
const tools = [
  createTool({
    id: 'weather',
    description: 'weather',
    inputSchema: z.object({ location: z.string().min(1) }),
    outputSchema: z.object({ location: z.string(), celsius: z.number() }),
    requestContextSchema: z.object({ tenant: z.string() }).partial(),
    execute: async ({ location }) => ({ location, celsius: location === 'Mars' ? ('cold' as unknown as number) : 21 }),
  }),
  createTool({ id: 'broken', description: 'throws', execute: async () => Promise.reject(new Error('down')) }),
  createTool({
    id: 'waiting',
    description: 'suspends',
    suspendSchema: z.object({ question: z.string() }),
    resumeSchema: z.object({ answer: z.string() }),
    execute: async (_input, { suspend }) => suspend?.({ question: 'Sure?' }),
  }),
  createTool({ id: 'guarded', description: 'needs approval', requireApproval: true, execute: async () => 'done' }),
]

/** The default app: the first handler of its request, so the completed answer is written straight. */
const straight = createToolApp({ tools })
/** The same tools behind a middleware of a parent app: the route is not the first handler, so `c.json`. */
const throughHono = new Hono().use('*', async (_c, next) => next()).route('/', createToolApp({ tools }))

// A fixed trace, so both answers carry one `x-trace-id` (SPEC §17: the incoming traceparent's).
const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
const call = async (app: { request: Hono['request'] }, toolId: string, body: string, headers: Record<string, string> = {}) => {
  const response = await app.request(`/tools/${toolId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'x-tool-call-id': 'call_fixed', traceparent, ...headers },
    body,
  })
  const runId = response.headers.get('x-run-id')
  // Run and approval ids are random: the same placeholder in both answers, where each names its own.
  const text = (await response.text()).replaceAll(runId ?? '\u0000', 'RUN').replace(/approval_[0-9a-f]+/, 'APPROVAL')
  return { status: response.status, headers: [...response.headers].map(([name, value]) => [name, value === runId ? 'RUN' : value]), text }
}

describe('a call answers the same bytes with and without the straight JSON write', () => {
  it.each([
    ['completed', 'weather', '{"location":"Lisbon"}', {}, 200],
    ['failed in execute', 'broken', '{}', {}, 500],
    ['suspended', 'waiting', '{}', {}, 202],
    ['approval required', 'guarded', '{}', {}, 202],
    ['bad input', 'weather', '{"location":""}', {}, 400],
    ['invalid JSON', 'weather', '{"location":', {}, 400],
    ['bad output', 'weather', '{"location":"Mars"}', {}, 500],
    ['bad request context', 'weather', '{"location":"Lisbon"}', { 'x-request-context': '{"tenant":7}' }, 400],
  ] as const)('%s', async (_ending, toolId, body, headers, status) => {
    const answer = await call(straight, toolId, body, headers)
    expect(answer.status).toBe(status)
    expect(answer).toEqual(await call(throughHono, toolId, body, headers))
  })

  it('the completed answer: its headers and fields in the order c.json writes them', async () => {
    const answer = await call(straight, 'weather', '{"location":"Lisbon"}')
    expect(answer.headers).toEqual([
      ['content-type', 'application/json'],
      ['x-run-id', 'RUN'],
      ['x-tool-call-id', 'call_fixed'],
      ['x-trace-id', '0af7651916cd43dd8448eb211c80319c'],
    ])
    expect(answer.text).toBe('{"runId":"RUN","toolCallId":"call_fixed","status":"completed","output":{"location":"Lisbon","celsius":21},"modelOutput":{"type":"json","value":{"location":"Lisbon","celsius":21}}}')
  })
})

describe('the straight JSON write keeps headers set on the context before it', () => {
  it('by a middleware before the route', async () => {
    const app = new Hono().use('*', async (c, next) => {
      c.header('x-served-by', 'edge')
      await next()
    })
    app.route('/', createToolApp({ tools }))
    const response = await app.request('/tools/weather', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"location":"Lisbon"}' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-served-by')).toBe('edge')
  })

  it('by the app’s own request context resolver', async () => {
    const app = createToolApp({
      tools,
      resolveRequestContext: (c) => {
        c.header('x-tenant-checked', 'yes')
        return { tenant: 'acme' }
      },
    })
    const response = await app.request('/tools/weather', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"location":"Lisbon"}' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-tenant-checked')).toBe('yes')
  })
})

describe('the default principal, computed only when a run is stored', () => {
  // The hash of the credential is put off until a run is stored (a call that stores none never
  // needs it): every stored run must still belong to the credential that created it.
  const owned = async (app: { request: Hono['request'] }, toolId: string) => {
    const response = await app.request(`/tools/${toolId}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer alice' }, body: '{"location":"Lisbon"}' })
    const runId = response.headers.get('x-run-id')!
    const as = async (authorization: string) => (await app.request(`/runs/${runId}`, { headers: { authorization } })).status
    return { status: response.status, alice: await as('Bearer alice'), bob: await as('Bearer bob') }
  }

  it.each([
    ['suspended', 'waiting', {}],
    ['approval required', 'guarded', {}],
    ["completed under storeRuns: 'all'", 'weather', { storeRuns: 'all' as const }],
  ])('%s: the run answers its creator, not another credential', async (_ending, toolId, options) => {
    const { alice, bob } = await owned(createToolApp({ tools, ...options }), toolId)
    expect([alice, bob]).toEqual([200, 404])
  })
})
