// The AI SDK's MCP client (@ai-sdk/mcp 2), as an AI SDK app uses it (`tools()` for generateText),
// against toolroute's /mcp: it finds 2026-07-28 through server/discover; list, call, an approval
// tool with and without a form handler, and cancelling a call through its abortSignal.
import { createMCPClient, ElicitationRequestSchema, type MCPClient } from '@ai-sdk/mcp'
import { afterEach, describe, expect, it } from 'vitest'
import { base, eventually, getRun } from './runs.ts'

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close().catch(() => {})))
})

type Result = { isError?: boolean; structuredContent?: unknown; content: { type: string; text?: string }[]; _meta?: Record<string, unknown> }
const runOf = (result: Result) => (result._meta?.['toolroute/run'] as { runId: string }).runId

async function connect(options: { headers?: Record<string, string>; answer?: (message: string) => { action: 'accept'; content: Record<string, unknown> } } = {}): Promise<{ client: MCPClient; asked: string[] }> {
  const client = await createMCPClient({
    transport: { type: 'http', url: new URL('/mcp', base()).href, ...(options.headers ? { headers: options.headers } : {}) },
    ...(options.answer ? { capabilities: { elicitation: {} } } : {}),
  })
  closers.push(() => client.close())
  const asked: string[] = []
  const answer = options.answer
  if (answer) client.onElicitationRequest(ElicitationRequestSchema, async (request) => (asked.push(request.params.message), answer(request.params.message)))
  return { client, asked }
}

/** Runs a tool as generateText would, with the options it passes. */
async function execute(client: MCPClient, name: string, input: Record<string, unknown>, abortSignal?: AbortSignal): Promise<Result> {
  const tools = await client.tools()
  const tool = tools[name]
  if (!tool?.execute) throw new Error(`no tool ${name}`)
  return (await tool.execute(input, { toolCallId: `call_${crypto.randomUUID()}`, messages: [], ...(abortSignal ? { abortSignal } : {}) } as never)) as Result
}

describe("the AI SDK's MCP client", () => {
  it('negotiates 2026-07-28, lists the tools and calls one; bad input is an isError result', async () => {
    const { client } = await connect()
    expect(client.initializeResult.protocolVersion).toBe('2026-07-28')
    const tools = await client.tools()
    expect(Object.keys(tools).sort()).toEqual(['book-flight', 'confirm-order', 'delete-file', 'generate-report', 'weather-tool'])
    const result = await execute(client, 'weather-tool', { location: 'Paris' })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ location: 'Paris', temperatureCelsius: 21, conditions: 'sunny' })
    const invalid = await execute(client, 'weather-tool', { location: '' })
    expect(invalid.isError).toBe(true)
  })

  it('an approval tool, by default (no form handler): an isError result naming the run, approved over HTTP once', async () => {
    const headers = { authorization: `Bearer ai-sdk-${crypto.randomUUID()}` }
    const { client } = await connect({ headers })
    const result = await execute(client, 'delete-file', { path: '/tmp/ai.txt' })
    expect(result.isError).toBe(true)
    const runId = runOf(result)
    expect(result._meta?.['toolroute/run']).toMatchObject({ runId, status: 'approval-required' })
    expect(result.content[0]!.text).toContain(`POST /runs/${runId}/approve`)
    const approve = () => fetch(new URL(`/runs/${runId}/approve`, base()), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' })
    const approved = await approve()
    expect(approved.status).toBe(200)
    expect(await approved.json()).toMatchObject({ status: 'completed', output: { deleted: '/tmp/ai.txt' } })
    expect((await approve()).status).toBe(409)
  })

  it('with onElicitationRequest, the approval is asked and answered in the call: the tool runs once', async () => {
    const headers = { authorization: `Bearer ai-sdk-${crypto.randomUUID()}` }
    const { client, asked } = await connect({ headers, answer: () => ({ action: 'accept', content: { approved: true } }) })
    const result = await execute(client, 'delete-file', { path: '/tmp/ai-asked.txt' })
    expect(asked).toHaveLength(1)
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ deleted: '/tmp/ai-asked.txt' })
    expect((await getRun(runOf(result), headers)).body).toMatchObject({ status: 'completed', output: { deleted: '/tmp/ai-asked.txt' } })
  })
})

describe("cancelling a call through the AI SDK tool's abortSignal (a client abort under 2026-07-28)", () => {
  /** The caller's runs, as tasks/list (2025-11-25, stateless) lists them: background runs per principal. */
  const listRuns = async (headers: Record<string, string>) => {
    const response = await fetch(new URL('/mcp', base()), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/list', params: {} }),
    })
    return ((await response.json()) as { result: { tasks: { taskId: string }[] } }).result.tasks
  }

  async function cancelPlainCall() {
    const headers = { authorization: `Bearer ai-sdk-cancel-${crypto.randomUUID()}` }
    const { client } = await connect({ headers })
    const abort = new AbortController()
    const call = execute(client, 'generate-report', { month: '2026-04', delayMs: 3000 }, abort.signal)
    call.catch(() => {})
    const [run] = await eventually(
      () => listRuns(headers),
      (tasks) => tasks.length > 0,
    )
    const cancelledAt = Date.now()
    abort.abort(new Error('stopped by the user'))
    return { call, runId: run!.taskId, headers, cancelledAt }
  }

  it('the call rejects at once', async () => {
    const { call, cancelledAt } = await cancelPlainCall()
    await expect(call).rejects.toThrow()
    expect(Date.now() - cancelledAt).toBeLessThan(1000)
  })

  // Over a real socket, local workerd learns of the abort when it next writes to the response: a call
  // still running after a short grace answers as an SSE stream that keeps alive, so it does.
  it('the run of the aborted call is cancelled, not completed', async () => {
    const { call, runId, headers } = await cancelPlainCall()
    await call.catch(() => {})
    const run = await eventually(
      () => getRun(runId, headers),
      (current) => current.body.status !== 'running',
    )
    expect(run.body.status).toBe('cancelled')
  })
})
