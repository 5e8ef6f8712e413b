// A Worker whose wrangler.toml lacks the runs binding says so at its first request, once, in the
// server's log: not as an EXECUTION_FAILED at the first approval.
import { env } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { createWorker, workerRunStore } from 'toolroute/workers'
import { testTools } from '../fixtures/test-tools.ts'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const list = (worker: ReturnType<typeof createWorker>, bindings: unknown) => worker.fetch(new Request('http://tools.test/tools'), bindings, ctx)

describe('a missing TOOLROUTE_RUNS binding', () => {
  it('is reported once, at the first request, and the routes that need no run still answer', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const worker = createWorker({ tools: testTools, runStore: workerRunStore })
      expect((await list(worker, {})).status).toBe(200)
      expect((await list(worker, {})).status).toBe(200)
      const reports = logged.mock.calls.filter(([message]) => String(message).includes('no Durable Object binding TOOLROUTE_RUNS'))
      expect(reports).toHaveLength(1)
      expect(String(reports[0]![0])).toContain('wrangler.toml')
    } finally {
      logged.mockRestore()
    }
  })

  it('is not reported when the binding is there, or when the config brings its own run host', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      expect((await list(createWorker({ tools: testTools, runStore: workerRunStore }), env)).status).toBe(200)
      expect((await list(createWorker({ tools: testTools, runStore: workerRunStore, runs: () => undefined as never }), {})).status).toBe(200)
      expect(logged.mock.calls.filter(([message]) => String(message).includes('TOOLROUTE_RUNS'))).toHaveLength(0)
    } finally {
      logged.mockRestore()
    }
  })
})
