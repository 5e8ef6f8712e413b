// CORS and the Host check are middleware a Worker is given, not imported by the app (SPEC §11): a
// deployed Worker without `cors` bundles neither (test/node/split-entries.test.ts). An entry that sets
// the option but passes no middleware is refused where the Worker is made, never served unguarded.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createWorker, workerCors, workerHostCheck } from 'toolroute/workers'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const greet = createTool({
  id: 'greet',
  description: 'Say hello',
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => ({ message: `Hello, ${name}!` }),
})
const list = (worker: { fetch: ReturnType<typeof createWorker>['fetch'] }, url: string, headers: Record<string, string> = {}) => worker.fetch(new Request(url, { headers }), env, ctx)

describe('a Worker given its guards', () => {
  it('servedLocally without hostCheck is refused at creation, naming workerHostCheck', () => {
    expect(() => createWorker({ tools: [greet], mcp: false, idempotency: false, servedLocally: true })).toThrow('hostCheck: workerHostCheck')
  })

  it('cors without corsMiddleware is refused at creation, naming workerCors', () => {
    expect(() => createWorker({ tools: [greet], mcp: false, idempotency: false, cors: true })).toThrow('corsMiddleware: workerCors')
  })

  it('with hostCheck, a locally served Worker answers loopback Hosts only', async () => {
    const worker = createWorker({ tools: [greet], mcp: false, idempotency: false, servedLocally: true, hostCheck: workerHostCheck })
    expect((await list(worker, 'http://localhost:8787/tools')).status).toBe(200)
    const foreign = await list(worker, 'http://attacker.example/tools')
    expect(foreign.status).toBe(403)
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN')
  })

  it('with corsMiddleware, preflights are answered and the run headers exposed', async () => {
    const worker = createWorker({ tools: [greet], mcp: false, idempotency: false, cors: { origin: 'https://app.example' }, corsMiddleware: workerCors })
    const preflight = await worker.fetch(
      new Request('https://tools.example/tools/greet', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } }),
      env,
      ctx,
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const listed = await list(worker, 'https://tools.example/tools', { origin: 'https://app.example' })
    expect(listed.headers.get('access-control-expose-headers')).toContain('x-run-id')
  })
})
