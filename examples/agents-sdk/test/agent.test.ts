// The agent in workerd (its Durable Object, the Agents SDK's MCP client) against toolroute's /mcp,
// served by the chat-agent example's Worker under `wrangler dev`.
import { exports } from 'cloudflare:workers'
import { describe, expect, inject, it } from 'vitest'

type CallResult = { isError?: boolean; structuredContent?: unknown; content: { type: string; text: string }[]; _meta: { 'toolroute/run': { runId: string; status: string } } }

const agent = (name: string, action: string, body?: unknown, kind = 'tool-agent') =>
  exports.default.fetch(`http://agents.test/agents/${kind}/${name}/${action}`, {
    method: 'POST',
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  })

/** The toolroute run an MCP result names, read over toolroute's HTTP routes. */
async function runOf(result: CallResult) {
  const response = await fetch(`${inject('toolrouteUrl')}/runs/${result._meta['toolroute/run'].runId}`)
  return response.json()
}

describe('an Agents SDK agent using toolroute over MCP', () => {
  it('connects with addMcpServer and sees the tools', async () => {
    const response = await agent('plain', 'connect')
    expect(response.status).toBe(200)
    const connected = (await response.json()) as { state: string; protocolVersion: string; sessionId?: string; tools: string[] }
    expect(connected.state).toBe('ready')
    // The Agents SDK's MCP client (v2) finds toolroute's stateless generation through server/discover.
    expect(connected.protocolVersion).toBe('2026-07-28')
    expect(connected.sessionId).toBeUndefined()
    expect(connected.tools.sort()).toEqual(['delete-file', 'index-docs', 'summarize-docs'])
  })

  it('calls a plain tool: its output is the structured content', async () => {
    await agent('plain', 'connect')
    const { result } = (await (await agent('plain', 'call', { name: 'index-docs', arguments: { files: ['agents.md', 'runs.md'] } })).json()) as { result: CallResult }
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ indexed: 2, tokens: 1600 })
  })

  it('an approval tool asks over elicitation; the answer approves its run, which runs once', async () => {
    await agent('approver', 'connect')
    const response = await agent('approver', 'call', { name: 'delete-file', arguments: { path: 'notes.txt' }, answer: { approved: true } })
    const { result, asked } = (await response.json()) as { result: CallResult; asked: string[] }
    expect(asked).toHaveLength(1)
    expect(asked[0]).toContain('Allow delete-file to run with these arguments?')
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ deleted: 'notes.txt' })
    // On toolroute's side: one run, approved by the answer, completed.
    expect(await runOf(result)).toMatchObject({ status: 'completed', toolId: 'delete-file', output: { deleted: 'notes.txt' } })
  })

  it('declined over elicitation: the tool never runs', async () => {
    await agent('decliner', 'connect')
    const response = await agent('decliner', 'call', { name: 'delete-file', arguments: { path: 'keep.txt' }, answer: { approved: false, reason: 'not that one' } })
    const { result, asked } = (await response.json()) as { result: CallResult; asked: string[] }
    expect(asked).toHaveLength(1)
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toBe('The user declined to run delete-file: not that one. It did not run.')
    expect(result.structuredContent).toBeUndefined()
    expect(await runOf(result)).toMatchObject({ status: 'declined', toolId: 'delete-file' })
  })

  it('an agent that cannot answer forms gets an isError result naming the run, approved over HTTP once', async () => {
    await agent('headless', 'connect', undefined, 'headless-tool-agent')
    const response = await agent('headless', 'call', { name: 'delete-file', arguments: { path: 'later.txt' } }, 'headless-tool-agent')
    const { result, asked } = (await response.json()) as { result: CallResult; asked: string[] }
    expect(asked).toEqual([])
    expect(result.isError).toBe(true)
    const { runId, status } = result._meta['toolroute/run']
    expect(status).toBe('approval-required')
    expect(result.content[0]!.text).toContain(runId)
    const base = inject('toolrouteUrl')
    const approve = () => fetch(`${base}/runs/${runId}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    const approved = await approve()
    expect(approved.status).toBe(200)
    expect(await approved.json()).toMatchObject({ status: 'completed', output: { deleted: 'later.txt' } })
    // Approving again changes nothing: the tool ran once.
    expect((await approve()).status).toBe(409)
  })
})

describe('an Agents SDK agent cancelling a call (an abort signal on callTool, under 2026-07-28)', () => {
  const base = () => inject('toolrouteUrl')
  /** Polls until `check` holds (an upper bound only, never a timing assert). */
  async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, withinMs = 15_000): Promise<T> {
    const deadline = Date.now() + withinMs
    let value = await read()
    while (!check(value) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      value = await read()
    }
    return value
  }
  /** The principal's background runs, as tasks/list (2025-11-25, stateless) lists them. */
  const listRuns = async (token: string) => {
    const response = await fetch(`${base()}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/list', params: {} }),
    })
    return ((await response.json()) as { result: { tasks: { taskId: string }[] } }).result.tasks
  }
  const statusOf = async (runId: string, token: string) =>
    ((await (await fetch(`${base()}/runs/${runId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { status: string }).status

  it("the aborted call rejects, and its run ends cancelled, not completed", async () => {
    const token = `agent-canceller-${crypto.randomUUID()}`
    await agent('canceller', 'connect', { token })
    // Three files at two seconds each: the run is still going when the agent stops it.
    const started = agent('canceller', 'start', { name: 'summarize-docs', arguments: { files: ['a.md', 'b.md', 'c.md'], msPerFile: 2000 } })
    const [run] = await eventually(() => listRuns(token), (tasks) => tasks.length > 0)
    expect(run).toBeDefined()
    expect(await statusOf(run!.taskId, token)).toBe('running')
    expect((await agent('canceller', 'abort')).status).toBe(200)
    const { call } = (await (await started).json()) as { call: string }
    expect(call).toMatch(/^rejected: /)
    expect(await eventually(() => statusOf(run!.taskId, token), (status) => status !== 'running')).toBe('cancelled')
  })
})
