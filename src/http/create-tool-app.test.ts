import { Hono } from 'hono'
import { bearerAuth } from 'hono/bearer-auth'
import { cors } from 'hono/cors'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'
import { createToolApp } from './create-tool-app.ts'
import { idempotentCall } from './idempotent-call.ts'

const tools = ['weather', 'stocks', 'news'].map((id) =>
  createTool({ id, description: id, inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => ({ id, q }) }),
)

describe('createToolApp routing', () => {
  // RegExpRouter alone: what Hono's default SmartRouter settles on for these routes, without the
  // TrieRouter it bundles beside it. A layout it refuses would have moved every request to the
  // slower TrieRouter without a word; here it fails where the route is added.
  it('routes on RegExpRouter alone, with every option that adds routes, and with strict paths', async () => {
    const app = createToolApp({ tools, basePath: '/api/v1', cors: true, auth: bearerAuth({ token: 't' }) }, { cors })
    const response = await app.request('/api/v1/tools/stocks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: JSON.stringify({ q: 'ACME' }),
    })
    expect(await response.json()).toMatchObject({ status: 'completed', output: { id: 'stocks', q: 'ACME' } })
    expect(app.router.name).toBe('RegExpRouter')
    for (const path of ['/api/v1/tools/', '/api/v1/tools/stocks/', '/api/v1/runs/x/events/']) {
      const answer = await app.request(path, { headers: { authorization: 'Bearer t' } })
      expect([path, answer.status, ((await answer.json()) as { error: { code: string } }).error.code]).toEqual([path, 404, 'TOOL_NOT_FOUND'])
    }
    expect((await app.request('/api/v1/tools', { headers: { authorization: 'Bearer t' } })).status).toBe(200)
  })

  it('a route of your own that RegExpRouter refuses fails where it is added; in your own Hono app, mounting this one, it is served', async () => {
    expect(() => createToolApp({ tools }).get('/tools/summary', (c) => c.text('summary'))).toThrow('/tools/summary')
    const yours = new Hono()
    yours.get('/tools/summary', (c) => c.text('summary'))
    yours.route('/', createToolApp({ tools }))
    expect(await (await yours.request('/tools/summary')).text()).toBe('summary')
    expect(await (await yours.request('/tools/news', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"x"}' })).json()).toMatchObject({ output: { id: 'news', q: 'x' } })
  })
})

describe('createToolApp refuses tools it could not tell apart', () => {
  const tool = (id: string) => createTool({ id, description: 'x', execute: async () => id })

  it('two tools with one id', () => {
    expect(() => createToolApp({ tools: [tool('same'), tool('same')] })).toThrow('Two tools have the id "same"')
  })

  it('two ids that map to one MCP name, naming both', () => {
    expect(() => createToolApp({ tools: [tool('Lookup order'), tool('Lookup_order')] })).toThrow('Tools "Lookup order" and "Lookup_order" have one MCP name "Lookup_order"')
    expect(() => createToolApp({ tools: [tool('a b'), tool('a/b')] })).toThrow('have one MCP name "a_b"')
  })

  it('serves an id with a space and one with a slash at their encoded routes', async () => {
    const app = createToolApp({ tools: [tool('Lookup order'), tool('a/b')] })
    for (const id of ['Lookup order', 'a/b']) {
      const response = await app.request(`/tools/${encodeURIComponent(id)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ status: 'completed', output: id })
    }
  })
})

describe('createToolApp without an idempotency store', () => {
  // The Hono app imports no store of its own (SPEC §11): its composer brings one (toolroute/server
  // an in-memory one, a Worker its Durable Objects). Without any, a keyed call must not run unkeyed.
  it('fails a keyed call before its tool runs, and serves unkeyed calls', async () => {
    let executed = 0
    const counted = createTool({ id: 'counted', description: 'x', execute: async () => ++executed })
    const app = createToolApp({ tools: [counted] })
    const call = (headers: Record<string, string>) => app.request('/tools/counted', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' })
    const keyed = await call({ 'idempotency-key': 'k1' })
    expect(keyed.status).toBe(500)
    expect(await keyed.json()).toMatchObject({ error: { code: 'EXECUTION_FAILED', message: expect.stringContaining('pass `idempotency`') } })
    expect(executed).toBe(0)
    expect(await (await call({})).json()).toMatchObject({ status: 'completed', output: 1 })
  })

  it('ignores the key with idempotency: false, and uses the store it is given', async () => {
    const { createMemoryIdempotencyStore } = await import('../store/memory/memory-idempotency-store.ts')
    const { createMemoryRunHost } = await import('../store/memory/create-memory-run-host.ts')
    let executed = 0
    const counted = createTool({ id: 'counted', description: 'x', execute: async () => ++executed })
    const keyed = (app: ReturnType<typeof createToolApp>) => app.request('/tools/counted', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'k1' }, body: '{}' })
    const ignoring = createToolApp({ tools: [counted], idempotency: false })
    expect((await keyed(ignoring)).status).toBe(200)
    expect((await keyed(ignoring)).status).toBe(200)
    expect(executed).toBe(2)
    const keeping = createToolApp({ tools: [counted] }, { idempotency: { call: idempotentCall, keys: createMemoryIdempotencyStore }, runs: createMemoryRunHost })
    const first = await keeping.request('/tools/counted', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'k2' }, body: '{}' })
    expect(((await first.json()) as { status: string }).status).toBe('completed')
    const repeat = await keeping.request('/tools/counted', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'k2' }, body: '{}' })
    expect(repeat.headers.get('idempotent-replayed')).toBe('true')
    expect(executed).toBe(3)
  })
})
