// A Worker without MCP (SPEC §11): createWorker imports no MCP code, so `/mcp` is served only when
// the entry passes `mcpServer` (the generated entry does unless the config says `mcp: false`).
import { env } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { createWorker, workerMcpServer, workerRunStore } from 'toolroute/workers'
import { testTools } from '../fixtures/test-tools.ts'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
})
const postMcp = (worker: ReturnType<typeof createWorker>) =>
  worker.fetch(new Request('http://tools.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: initialize }), env, ctx)
const mcpReports = (logged: { mock: { calls: unknown[][] } }) => logged.mock.calls.filter(([message]) => String(message).includes('mcpServer'))

describe('a Worker without MCP', () => {
  it('mcp: false: /mcp is an unknown route, the tools still answer, and there is no McpSessionObject (the entry declares one its wrangler config binds)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const worker = createWorker({ tools: testTools, mcp: false })
      const response = await postMcp(worker)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: { code: 'TOOL_NOT_FOUND', message: 'No route for POST /mcp' } })
      expect((await worker.fetch(new Request('http://tools.test/tools'), env, ctx)).status).toBe(200)
      expect('McpSessionObject' in worker).toBe(false)
      expect(mcpReports(logged)).toEqual([])
    } finally {
      logged.mockRestore()
    }
  })

  it('MCP left on without mcpServer (a hand-written entry): /mcp is not served, and the log says why, once', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const worker = createWorker({ tools: testTools })
      expect((await postMcp(worker)).status).toBe(404)
      expect((await postMcp(worker)).status).toBe(404)
      expect(mcpReports(logged)).toHaveLength(1)
      expect(String(mcpReports(logged)[0]![0])).toContain('mcpServer: workerMcpServer')
    } finally {
      logged.mockRestore()
    }
  })

  it('with mcpServer: workerMcpServer, /mcp answers initialize', async () => {
    const response = await postMcp(createWorker({ tools: testTools, mcpServer: workerMcpServer, runStore: workerRunStore }))
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('"protocolVersion":"2025-06-18"')
  })
})
