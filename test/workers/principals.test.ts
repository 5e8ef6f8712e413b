// Who owns a run, a key and a stateless MCP request id (SPEC §12, §9), on the real Worker entry:
// runs in Durable Objects, keys in the idempotency object, stateless calls routed to the MCP
// object. The app here reads a session cookie in its resolveRequestContext, as a Hono app with a
// login would; each finding of issue #26 is one test.
import { env } from 'cloudflare:workers'
import { SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createWorker, workerKeyStore, workerMastraRoutes, workerMcpServer, workerRunStore } from 'toolroute/workers'
import type { Context } from 'hono'
import { tools } from '../../.toolroute/tools.ts'
import { testTools } from '../fixtures/test-tools.ts'
import { eventually, readProbe } from './http-client.ts'
import { jsonRpcAnswer, modernToolCall } from '../fixtures/modern-mcp-call.ts'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const allTools = [...tools, ...testTools]
const sessions: Record<string, string> = { 'sid-alice': 'alice', 'sid-bob': 'bob' }
const userOf = (c: Context) => sessions[/(?:^|;\s*)sid=([^;]+)/.exec(c.req.header('cookie') ?? '')?.[1] ?? '']

/** The app as its docs say to write it: the resolver names the principal beside the context. */
const owned = createWorker({
  tools: allTools,
  keyStore: workerKeyStore,
  mcpServer: workerMcpServer,
  runStore: workerRunStore,
  mastraRoutes: workerMastraRoutes,
  resolveRequestContext: (c) => {
    const user = userOf(c)
    return user ? { requestContext: { userId: user }, principal: `user:${user}` } : undefined
  },
})
/** The app of the finding: the same resolver, returning the context alone (no principal). */
const unowned = createWorker({ tools: allTools, keyStore: workerKeyStore, runStore: workerRunStore, resolveRequestContext: (c) => (userOf(c) ? { userId: userOf(c) } : undefined) })

const as = (user: string, headers: Record<string, string> = {}) => ({ cookie: `theme=dark; sid=sid-${user}`, ...headers })
const post = (app: { fetch: typeof owned.fetch }, path: string, body: unknown, headers: Record<string, string>) =>
  app.fetch(new Request(`http://tools.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }), env, ctx)

afterEach(() => vi.restoreAllMocks())

describe("the resolver's principal owns the runs", () => {
  it("bob can neither read nor approve alice's run; alice can", async () => {
    const created = await post(owned, '/tools/delete-file', { path: '/alice/notes.txt' }, as('alice'))
    expect(created.status).toBe(202)
    const { runId } = (await created.json()) as { runId: string }
    const read = (user: string) => owned.fetch(new Request(`http://tools.test/runs/${runId}`, { headers: as(user) }), env, ctx)
    expect((await read('bob')).status).toBe(404)
    const approvedByBob = await post(owned, `/runs/${runId}/approve`, {}, as('bob'))
    expect(approvedByBob.status).toBe(404)
    expect(((await approvedByBob.json()) as { error: { code: string } }).error.code).toBe('RUN_NOT_FOUND')
    // Nor anyone without the cookie, by the run id alone.
    expect((await owned.fetch(new Request(`http://tools.test/runs/${runId}`), env, ctx)).status).toBe(404)
    expect(await (await read('alice')).json()).toMatchObject({ status: 'approval-required' })
    expect(await (await post(owned, `/runs/${runId}/approve`, {}, as('alice'))).json()).toMatchObject({ status: 'completed', output: { deleted: '/alice/notes.txt' } })
  })
})

describe('every surface asks the same principalOf', () => {
  it("Mastra's execute route: bob cannot read alice's waiting run", async () => {
    const created = await post(owned, '/api/tools/delete-file/execute', { data: { path: '/alice/mastra' } }, as('alice'))
    expect(created.status).toBe(202)
    const { runId } = (await created.json()) as { runId: string }
    expect((await owned.fetch(new Request(`http://tools.test/runs/${runId}`, { headers: as('bob') }), env, ctx)).status).toBe(404)
    expect((await owned.fetch(new Request(`http://tools.test/runs/${runId}`, { headers: as('alice') }), env, ctx)).status).toBe(200)
  })

  it("MCP 2026-07-28: bob's retry with alice's requestState is refused; hers approves", async () => {
    const call = async (user: string, retry: Record<string, unknown> = {}) =>
      jsonRpcAnswer(await owned.fetch(new Request('http://tools.test/mcp', modernToolCall('delete-file', { path: '/alice/modern' }, retry, as(user))), env, ctx))
    const asked = await call('alice')
    expect(asked.result.resultType).toBe('input_required')
    const approve = { requestState: asked.result.requestState, inputResponses: { [Object.keys(asked.result.inputRequests)[0]!]: { action: 'accept', content: { approved: true } } } }
    expect((await call('bob', approve)).error).toMatchObject({ code: -32602 })
    expect((await call('alice', approve)).result.structuredContent).toEqual({ deleted: '/alice/modern' })
  })
})

describe('Idempotency-Key: scoped to the principal, fingerprinted with it and the request context', () => {
  const keyed = (app: { fetch: typeof owned.fetch }, key: string, headers: Record<string, string>) =>
    post(app, '/tools/transfer-money', { amount: 42 }, { 'idempotency-key': key, ...headers })

  it("bob's request with alice's key and body executes as his own, and never gets her answer", async () => {
    const key = `shared-${crypto.randomUUID()}`
    const alice = await keyed(owned, key, as('alice'))
    expect(await alice.json()).toMatchObject({ status: 'completed', output: { by: 'alice' } })
    const bob = await keyed(owned, key, as('bob'))
    expect(bob.headers.get('idempotent-replayed')).toBeNull()
    expect(await bob.json()).toMatchObject({ status: 'completed', output: { by: 'bob' } })
    // Each principal's repeat replays its own first answer.
    const again = await keyed(owned, key, as('alice'))
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toMatchObject({ output: { by: 'alice' } })
  })

  it('without a principal, another request context is another request: 422, not the first answer', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const key = `unowned-${crypto.randomUUID()}`
    expect(await (await keyed(unowned, key, as('alice'))).json()).toMatchObject({ output: { by: 'alice' } })
    const bob = await keyed(unowned, key, as('bob'))
    expect(bob.status).toBe(422)
    expect(((await bob.json()) as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED')
  })

  it('one Authorization principal with the same key and body in another x-request-context: 422', async () => {
    const key = `context-${crypto.randomUUID()}`
    const send = (userId: string) =>
      SELF.fetch('http://tools.test/tools/transfer-money', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer shared-token', 'idempotency-key': key, 'x-request-context': JSON.stringify({ userId }) },
        body: JSON.stringify({ amount: 7 }),
      })
    expect((await send('alice')).status).toBe(200)
    expect((await send('bob')).status).toBe(422)
    expect((await send('alice')).headers.get('idempotent-replayed')).toBe('true')
  })
})

describe('a resolver that reads credentials but names no principal', () => {
  it('is told so once in the log, with what to do', async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const app = createWorker({ tools: allTools, keyStore: workerKeyStore, runStore: workerRunStore, resolveRequestContext: (c) => (userOf(c) ? { userId: userOf(c) } : undefined) })
    for (const user of ['alice', 'bob']) expect((await post(app, '/tools/delete-file', { path: `/${user}` }, as(user))).status).toBe(202)
    const said = warned.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('no principal'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain('Return { requestContext, principal } from resolveRequestContext')
  })

  it('is not, once it names one (or nothing but the header answered)', async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect((await post(owned, '/tools/delete-file', { path: '/a' }, as('alice'))).status).toBe(202)
    expect((await post(owned, '/tools/delete-file', { path: '/b' }, { cookie: 'theme=dark' })).status).toBe(202)
    expect(warned.mock.calls.filter(([message]) => String(message).includes('no principal'))).toEqual([])
  })
})

describe('stateless MCP request ids belong to their principal', () => {
  const mcp = (app: { fetch: typeof owned.fetch } | undefined, body: unknown, headers: Record<string, string> = {}) => {
    const request = new Request('http://tools.test/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
      body: JSON.stringify(body),
    })
    return app ? app.fetch(request, env, ctx) : SELF.fetch(request)
  }
  const call = (id: number, key: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'abort-recorder', arguments: { key, ms: 400 } } })
  const cancel = (requestId: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'not yours' } })

  it("an anonymous caller cannot cancel another anonymous caller's call by guessing its id", async () => {
    const key = `anonymous-${crypto.randomUUID()}`
    const answer = mcp(undefined, call(1, key))
    expect(await eventually(() => readProbe(key), (entries) => entries.includes('started'))).toContain('started')
    for (const requestId of [0, 1, 2]) expect((await mcp(undefined, cancel(requestId))).status).toBe(202)
    expect((await answer).status).toBe(200)
    // It ran to its end (the server's close after the answer may still fire its signal: too late).
    expect((await readProbe(key)).slice(0, 2)).toEqual(['started', 'finished'])
  })

  it("a cookie principal's call: bob's cancel of its id reaches nothing, alice's aborts it", async () => {
    const key = `cookie-${crypto.randomUUID()}`
    const answer = mcp(owned, call(5, key), as('alice'))
    expect(await eventually(() => readProbe(key), (entries) => entries.includes('started'))).toContain('started')
    expect((await mcp(owned, cancel(5), as('bob'))).status).toBe(202)
    expect((await mcp(owned, cancel(5))).status).toBe(202)
    expect(await readProbe(key)).toEqual(['started'])
    expect((await mcp(owned, cancel(5), as('alice'))).status).toBe(202)
    await answer
    expect((await eventually(() => readProbe(key), (entries) => entries.length > 1))[1]).toMatch(/^aborted/)
  })
})
