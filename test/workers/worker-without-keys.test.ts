// A hand-written entry that honours Idempotency-Key (the default) but passes no `keyStore`: createWorker
// imports neither the keyed call nor the keys' Durable Object (SPEC §11), so a keyed call fails before
// it executes, naming what to pass, and the first request logs why, once. Unkeyed calls answer.
import { env } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createWorker, workerKeyStore } from 'toolroute/workers'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const executed: string[] = []
const greet = createTool({
  id: 'greet',
  description: 'Say hello',
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => (executed.push(name), { message: `Hello, ${name}!` }),
})
const call = (worker: { fetch: ReturnType<typeof createWorker>['fetch'] }, name: string, headers: Record<string, string> = {}) =>
  worker.fetch(new Request('http://tools.test/tools/greet', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ name }) }), env, ctx)

let logged: MockInstance
beforeEach(() => {
  executed.length = 0
  logged = vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => logged.mockRestore())

describe('a Worker without keyStore', () => {
  it('refuses a keyed call before it executes, naming keyStore; logs it once; answers unkeyed calls; has no IdempotencyObject', async () => {
    const worker = createWorker({ tools: [greet], mcp: false, storeRuns: 'stateful' })
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await call(worker, 'Ada', { 'idempotency-key': 'k' })
      expect(refused.status).toBe(500)
      const { error } = (await refused.json()) as { error: { code: string; message: string } }
      expect(error.code).toBe('EXECUTION_FAILED')
      expect(error.message).toContain('keyStore: workerKeyStore')
    }
    expect(executed).toEqual([])
    expect((await call(worker, 'Bo')).status).toBe(200)
    expect(executed).toEqual(['Bo'])
    expect(logged.mock.calls.filter(([message]) => String(message).includes('keyStore'))).toHaveLength(1)
    expect('IdempotencyObject' in worker).toBe(false)
  })

  it('with idempotency: false, the header is ignored and nothing is logged about keys', async () => {
    const worker = createWorker({ tools: [greet], mcp: false, idempotency: false })
    expect((await call(worker, 'Cy', { 'idempotency-key': 'k' })).status).toBe(200)
    expect((await call(worker, 'Cy', { 'idempotency-key': 'k' })).status).toBe(200)
    expect(executed).toEqual(['Cy', 'Cy'])
    expect(logged.mock.calls.filter(([message]) => String(message).includes('keyStore'))).toEqual([])
  })

  it('with keyStore: workerKeyStore it has the IdempotencyObject class', () => {
    expect(typeof createWorker({ tools: [greet], mcp: false, keyStore: workerKeyStore }).IdempotencyObject).toBe('function')
  })
})
