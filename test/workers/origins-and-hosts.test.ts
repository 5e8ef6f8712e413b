// SPEC §5 "Origins and hosts" and §12 in workerd: a locally served app refuses foreign Hosts on
// every route (DNS rebinding), run actions refuse cross-site requests, a client's x-toolroute-*
// headers never reach toolroute's own hops, and JSON headers are depth-guarded.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'
import { origin } from './http-client.ts'
import { as, call, errorOf, getRun, runAction, start } from './run-client.ts'
import { mcpUrl } from './mcp-client.ts'

const executed: string[] = []
const noted = createTool({
  id: 'noted',
  description: 'Records that it ran',
  inputSchema: z.object({ note: z.string() }),
  execute: async ({ note }) => (executed.push(note), { note }),
})
const guarded = createTool({ id: 'guarded', description: 'Waits for approval', requireApproval: true, inputSchema: z.object({}), execute: async () => (executed.push('guarded'), {}) })

const local = createToolApp({ tools: [noted, guarded], servedLocally: true, allowedHosts: ['my-laptop.local', '.tunnel.test'], cors: { origin: 'https://app.example' } })

const json = { 'content-type': 'application/json' }
const mcpHeaders = { ...json, accept: 'application/json, text/event-stream' }
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }
const toolsCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'noted', arguments: { note: 'mcp' } } }

/** Every route of the app, as a request to `host`. */
const everyRoute = (host: string): [string, RequestInit][] => [
  ['/', {}],
  ['/tools', {}],
  ['/tools/noted', {}],
  ['/tools/noted', { method: 'POST', headers: json, body: JSON.stringify({ note: host }) }],
  ['/tools/noted', { method: 'OPTIONS', headers: { origin: `http://${host}`, 'access-control-request-method': 'POST' } }],
  ['/runs/run_x', {}],
  ['/runs/run_x/events', {}],
  ...(['approve', 'decline', 'resume', 'cancel'] as const).map((action): [string, RequestInit] => [`/runs/run_x/${action}`, { method: 'POST' }]),
  ['/openapi.json', {}],
  ['/api/tools', {}],
  ['/api/tools/noted/execute', { method: 'POST', headers: json, body: JSON.stringify({ data: { note: host } }) }],
  ['/mcp', { method: 'POST', headers: { ...mcpHeaders, origin: `http://${host}` }, body: JSON.stringify(initialize) }],
  ['/mcp', { method: 'POST', headers: { ...mcpHeaders, origin: `http://${host}` }, body: JSON.stringify(toolsCall) }],
  ['/nowhere', {}],
]

const send = (host: string, path: string, init: RequestInit = {}) => local.fetch(new Request(`http://${host}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), host } }))

describe('a locally served app answers loopback Hosts only, on every route (DNS rebinding)', () => {
  it.each(['evil.example.com', 'evil.example.com:8787', 'localhost.evil.example', '127.0.0.1.nip.io', 'localhost.', '0x7f.0.0.1', 'my-laptop.local.evil', 'tunnel.test.evil'])(
    'Host %s: 403 FORBIDDEN before anything runs',
    async (host) => {
      executed.length = 0
      for (const [path, init] of everyRoute(host)) {
        const response = await send(host, path, init)
        expect(response.status, `${init.method ?? 'GET'} ${path}`).toBe(403)
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN')
        expect(response.headers.get('access-control-allow-origin')).toBeNull()
      }
      expect(executed).toEqual([])
    },
  )

  it.each(['localhost', 'localhost:8787', '127.0.0.1', '127.0.0.1:80', '127.1.2.3:9', '[::1]', '[::1]:3000', 'LOCALHOST:8787', 'my-laptop.local:8787', 'tunnel.test', 'a.b.tunnel.test'])(
    'Host %s is answered (loopback, or allowedHosts)',
    async (host) => {
      const listed = await send(host, '/tools')
      expect(listed.status).toBe(200)
      const called = await send(host, '/tools/noted', { method: 'POST', headers: json, body: JSON.stringify({ note: host }) })
      expect(await called.json()).toMatchObject({ status: 'completed', output: { note: host } })
      const mcp = await send(host, '/mcp', { method: 'POST', headers: mcpHeaders, body: JSON.stringify(initialize) })
      expect(mcp.status).toBe(200)
      await mcp.body?.cancel()
    },
  )

  it('a Host refused is refused whatever else the request says (CF-Connecting-IP, X-Forwarded-Host, Origin)', async () => {
    const response = await send('evil.example.com', '/tools', { headers: { 'cf-connecting-ip': '127.0.0.1', 'x-forwarded-host': 'localhost', origin: 'http://localhost' } })
    expect(response.status).toBe(403)
  })

  it('an app not served locally (a deployed Worker) answers its real hosts', async () => {
    const response = await SELF.fetch('https://api.example.com/tools', { headers: { host: 'api.example.com' } })
    expect(response.status).toBe(200)
    await response.body?.cancel()
  })
})

describe('run actions refuse cross-site requests (SPEC §12)', () => {
  const waitingRun = async () => start('delete-file', { path: `/tmp/${crypto.randomUUID()}` }, { auth: 'alice' })
  const statusOf = async (runId: string) => ((await (await getRun(runId, { auth: 'alice' })).json()) as { status: string }).status
  const act = (runId: string, action: string, headers: Record<string, string>, body?: string) =>
    SELF.fetch(`${origin}/runs/${runId}/${action}`, { method: 'POST', headers: { ...as('alice'), ...headers }, ...(body !== undefined ? { body } : {}) })

  it('a body-less approve or a field-less form from another site gets 403, and the run still waits', async () => {
    const { runId } = await waitingRun()
    const refusals = [
      await act(runId, 'approve', { origin: 'http://evil.example', 'content-length': '0' }),
      await act(runId, 'approve', { origin: 'http://evil.example' }, ''),
      await act(runId, 'cancel', { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, ''),
      await act(runId, 'decline', { origin: 'http://evil.example', 'content-type': 'text/plain' }, '{}'),
      await act(runId, 'resume', { origin: 'null' }, ''),
      // JSON from another site (preflighted; this app has no cors option): still not allowed.
      await act(runId, 'approve', { origin: 'http://evil.example', ...json }, '{}'),
    ]
    for (const response of refusals) expect(await errorOf(response)).toMatchObject({ status: 403, code: 'FORBIDDEN' })
    expect(await statusOf(runId)).toBe('approval-required')
  })

  it('any body other than application/json answers 415, with or without Origin', async () => {
    const { runId } = await waitingRun()
    for (const response of [
      await act(runId, 'cancel', { 'content-type': 'application/x-www-form-urlencoded' }, ''),
      await act(runId, 'approve', { 'content-type': 'text/plain' }, '{}'),
      await act(runId, 'cancel', {}, 'x=1'),
      await act(runId, 'decline', { 'content-type': 'multipart/form-data; boundary=x', origin }, '--x--'),
    ]) {
      expect(await errorOf(response)).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
    }
    expect(await statusOf(runId)).toBe('approval-required')
  })

  it('a body-less action without Origin (curl, agents) and one from the app\'s own origin act', async () => {
    const first = await waitingRun()
    expect((await act(first.runId, 'approve', { 'content-length': '0' })).status).toBe(200)
    expect(await statusOf(first.runId)).toBe('completed')
    const second = await waitingRun()
    expect((await act(second.runId, 'cancel', { origin })).status).toBe(200)
    expect(await statusOf(second.runId)).toBe('cancelled')
  })

  it('the cors option allows its origins; pages of this machine may act on a locally served app', async () => {
    const ids: string[] = []
    for (let index = 0; index < 3; index++) {
      const started = await send('localhost:8787', '/tools/guarded', { method: 'POST', headers: json, body: '{}' })
      ids.push(((await started.json()) as { runId: string }).runId)
    }
    const action = (runId: string, from: string) => send('localhost:8787', `/runs/${runId}/cancel`, { method: 'POST', headers: { origin: from } })
    expect((await action(ids[0]!, 'https://app.example')).status).toBe(200)
    expect((await action(ids[1]!, 'http://127.0.0.1:5173')).status).toBe(200)
    expect((await action(ids[2]!, 'https://other.example')).status).toBe(403)
    expect(executed).not.toContain('guarded')
  })

  it("cors: true (origin *) vouches only for a JSON body, which a browser must preflight", async () => {
    const open = createToolApp({ tools: [guarded], cors: true })
    const start = async () => ((await (await open.request('/tools/guarded', { method: 'POST', headers: json, body: '{}' })).json()) as { runId: string }).runId
    const [first, second] = [await start(), await start()]
    const from = { origin: 'https://anywhere.example' }
    expect((await open.request(`/runs/${first}/cancel`, { method: 'POST', headers: from })).status).toBe(403)
    expect((await open.request(`/runs/${second}/cancel`, { method: 'POST', headers: { ...from, ...json }, body: '{}' })).status).toBe(200)
  })
})

describe("a client's x-toolroute-* headers are stripped at the edge", () => {
  it("cannot reach another principal's MCP session object (x-toolroute-mcp-stateless, x-toolroute-mcp-call)", async () => {
    const opened = await SELF.fetch(mcpUrl, {
      method: 'POST',
      headers: { ...mcpHeaders, ...as('alice') },
      body: JSON.stringify({ ...initialize, params: { ...initialize.params, capabilities: { elicitation: {} } } }),
    })
    const sessionId = opened.headers.get('mcp-session-id')!
    await opened.body?.cancel()
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const weather = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'weather-tool', arguments: { location: 'Oslo' } } }
    const internals: Record<string, string>[] = [{ 'x-toolroute-mcp-stateless': 'k' }, { 'x-toolroute-mcp-call': 'k' }, { 'x-toolroute-mcp-session': crypto.randomUUID() }]
    for (const internal of internals) {
      const intruding = await SELF.fetch(mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...as('mallory'), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', ...internal },
        body: JSON.stringify(weather),
      })
      // What any unknown session gets: alice's object answers only alice.
      expect(intruding.status, JSON.stringify(internal)).toBe(404)
      await intruding.body?.cancel()
    }
  })

  it('a forged caller header (x-toolroute-mcp-caller) does not make a caller another principal', async () => {
    const { runId } = await start('delete-file', { path: '/tmp/forged' }, { auth: 'alice' })
    const forged = encodeURIComponent(JSON.stringify({ requestContext: {}, principal: 'alice' }))
    const read = await SELF.fetch(`${origin}/runs/${runId}`, { headers: { 'x-toolroute-mcp-caller': forged, ...as('mallory') } })
    expect(await errorOf(read)).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
  })
})

describe('JSON a request carries is depth-guarded, headers included (SPEC §12)', () => {
  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`

  it('an x-request-context nested 5,000 deep answers 400 on a stateful tool, over HTTP and MCP; 256 levels pass', async () => {
    const refused = await call('delete-file', { path: '/tmp/deep' }, { auth: 'alice', headers: { 'x-request-context': deep(5000) } })
    expect(await errorOf(refused)).toMatchObject({ status: 400, code: 'REQUEST_CONTEXT_VALIDATION_FAILED' })
    const accepted = await call('delete-file', { path: '/tmp/deep' }, { auth: 'alice', headers: { 'x-request-context': deep(255) } })
    expect(accepted.status).toBe(202)
    await accepted.body?.cancel()
    const { runId } = await waitingRun()
    expect(await errorOf(await runAction(runId, 'approve', undefined, { auth: 'alice', headers: { 'x-request-context': deep(5000) } }))).toMatchObject({
      status: 400,
      code: 'REQUEST_CONTEXT_VALIDATION_FAILED',
    })
  })

  it('over MCP, a deep x-request-context is the call\'s isError result naming the code', async () => {
    const response = await SELF.fetch(mcpUrl, {
      method: 'POST',
      headers: { ...mcpHeaders, 'mcp-protocol-version': '2025-06-18', 'x-request-context': deep(5000) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'delete-file', arguments: { path: '/tmp/deep' } } }),
    })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toContain('"isError":true')
    expect(text).toContain('REQUEST_CONTEXT_VALIDATION_FAILED: x-request-context is not valid JSON here: it nests deeper than 256 levels')
  })

  it('an MCP body nested 5,000 deep answers -32700 (400), never 500', async () => {
    const response = await SELF.fetch(mcpUrl, { method: 'POST', headers: mcpHeaders, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${deep(5000)}}` })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: -32700 } })
  })

  it('a field holding JSON text nested past the limit stays text (no repair): 400 INPUT_VALIDATION_FAILED, never 500, over HTTP and MCP', async () => {
    // A model's stringified argument is parsed for an array field (validate-with-repairs.ts); a value this deep
    // once passed `z.array(z.unknown())` and overflowed the stack where it was stored or answered.
    const input = z.object({ tags: z.array(z.unknown()) })
    const tagged = createTool({ id: 'tagged', description: 'Echoes its tags', inputSchema: input, execute: async ({ tags }) => ({ tags }) })
    const held = createTool({ id: 'held', description: 'Waits with its tags', requireApproval: true, inputSchema: input, execute: async ({ tags }) => ({ count: tags.length }) })
    const app = createToolApp({ tools: [tagged, held] })
    const nested = (levels: number) => JSON.stringify({ tags: `${'['.repeat(levels)}${']'.repeat(levels)}` })
    for (const [id, headers] of [['tagged', {}], ['tagged', { 'idempotency-key': 'deep-1' }], ['held', {}]] as const) {
      const response = await app.request(`/tools/${id}`, { method: 'POST', headers: { ...json, ...headers }, body: nested(5000) })
      expect([id, headers, await errorOf(response)]).toMatchObject([id, headers, { status: 400, code: 'INPUT_VALIDATION_FAILED' }])
    }
    // A body of no declared length streams its input (SSE): the refusal is the stream's tool-input-error.
    for (const id of ['tagged', 'held']) {
      const streamed = await app.request(`/tools/${id}`, { method: 'POST', headers: { ...json, accept: 'text/event-stream' }, body: nested(5000) })
      const events = await streamed.text()
      expect([id, streamed.status, events.includes('"type":"tool-input-error"'), events.includes('stack')]).toEqual([id, 200, true, false])
    }
    const within = await app.request('/tools/tagged', { method: 'POST', headers: json, body: nested(255) })
    expect(within.status).toBe(200)
    await within.body?.cancel()
    const mcp = await app.request('/mcp', {
      method: 'POST',
      headers: { ...mcpHeaders, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'held', arguments: JSON.parse(nested(5000)) } }),
    })
    const text = await mcp.text()
    expect([mcp.status, text.includes('"isError":true'), text.includes('INPUT_VALIDATION_FAILED')]).toEqual([200, true, true])
  })

  const waitingRun = async () => start('delete-file', { path: `/tmp/${crypto.randomUUID()}` }, { auth: 'alice' })
})
