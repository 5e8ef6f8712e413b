// Cancelling a plain tools/call over MCP stops its run, in both generations (#28): a background
// tool's run goes on in its Durable Object after the call's stream closes, unless the cancel reaches
// the run itself. A task's run is not its request's: only tasks/cancel ends it (mcp-tasks.test.ts).
import { SELF } from 'cloudflare:test'
import { Client, StreamableHTTPClientTransport, type Progress } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { eventually } from './http-client.ts'

const mcpUrl = new URL('http://tools.test/mcp')
const open: Client[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})))
})

async function connect(era: '2025' | '2026', headers: Record<string, string>, elicitation = false) {
  const client = new Client(
    { name: 'toolroute-cancel-test', version: '1.0.0' },
    { capabilities: elicitation ? { elicitation: { form: {} } } : {}, ...(era === '2026' ? { versionNegotiation: { mode: 'auto' as const } } : {}) },
  )
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { fetch: (url, init) => SELF.fetch(url, init), requestInit: { headers } }))
  open.push(client)
  expect(client.getNegotiatedProtocolVersion()).toBe(era === '2026' ? '2026-07-28' : '2025-11-25')
  return client
}

/** The caller's background runs, as 2025-11-25 tasks/list shows them (a stateless request of that principal). */
async function runsOf(authorization: string): Promise<{ taskId: string; status: string }[]> {
  const response = await SELF.fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/list' }),
  })
  return ((await response.json()) as { result: { tasks: { taskId: string; status: string }[] } }).result.tasks
}

describe('cancelling a plain tools/call cancels its run', () => {
  for (const [era, elicitation] of [['2025', true], ['2025', false], ['2026', false]] as const) {
    it(`${era === '2026' ? '2026-07-28 (the client drops the request)' : `2025-11-25 ${elicitation ? 'in a session' : 'statelessly'} (notifications/cancelled)`}`, async () => {
      const authorization = `Bearer cancel-${era}-${elicitation}-${crypto.randomUUID()}`
      const client = await connect(era, { authorization }, elicitation)
      const abort = new AbortController()
      const call = client.callTool({ name: 'generate-report', arguments: { month: '2027-02', delayMs: 5000 } }, { signal: abort.signal })
      const [started] = await eventually(() => runsOf(authorization), (tasks) => tasks.length === 1)
      expect(started!.status).toBe('working')
      abort.abort(new Error('the user stopped it'))
      await expect(call).rejects.toThrow()
      const [ended] = await eventually(() => runsOf(authorization), (tasks) => tasks[0]?.status !== 'working')
      expect(ended).toMatchObject({ taskId: started!.taskId, status: 'cancelled' })
    })
  }

  it('a plain call that completes is not cancelled afterwards', async () => {
    const authorization = `Bearer cancel-none-${crypto.randomUUID()}`
    const client = await connect('2025', { authorization })
    expect((await client.callTool({ name: 'generate-report', arguments: { month: '2027-03', delayMs: 0 } })).structuredContent).toEqual({ month: '2027-03', rows: 31 })
    expect((await runsOf(authorization)).map((task) => task.status)).toEqual(['completed'])
  })
})

describe('progress of a background tool followed within a plain call', () => {
  for (const era of ['2025', '2026'] as const) {
    it(`${era === '2026' ? '2026-07-28' : '2025-11-25'}: each value the run writes comes as a progress notification, then the result`, async () => {
      const client = await connect(era, { authorization: `Bearer progress-${era}-${crypto.randomUUID()}` })
      const seen: Progress[] = []
      const result = await client.callTool(
        { name: 'index-repository', arguments: { repository: 'toolroute', files: ['a.ts', 'b.ts', 'c.ts'], delayMs: 5 } },
        { onprogress: (progress) => seen.push(progress) },
      )
      expect(result.structuredContent).toEqual({ repository: 'toolroute', indexed: 3, tokens: 120 })
      expect(seen.length).toBeGreaterThanOrEqual(3)
      expect(seen.map((progress) => progress.progress)).toEqual([...seen.keys()].map((index) => index + 1))
    })
  }
})
