// The v1 SDK client (@modelcontextprotocol/sdk 1.32.2, what most MCP hosts still ship) at its
// 2025-11-25, against toolroute's /mcp: list, call, approve and answer through elicitation (a
// session), approve over HTTP when it cannot answer (stateless), cancel, and v1's own tasks API.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, McpError, type ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { base, eventually, getRun } from './runs.ts'

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close().catch(() => {})))
})

type Result = Awaited<ReturnType<Client['callTool']>>
const textOf = (result: Result) => ((result.content as { type: string; text?: string }[])[0]?.text ?? '')
const runOf = (result: Result) => (result._meta?.['toolroute/run'] as { runId: string; status: string }).runId

/** A v1 client; with `answer`, it declares elicitation and answers each question with it. */
async function connect(options: { answer?: (message: string) => ElicitResult; headers?: Record<string, string> } = {}) {
  const client = new Client({ name: 'v1-client', version: '1.0.0' }, { capabilities: options.answer ? { elicitation: {} } : {} })
  const asked: string[] = []
  const answer = options.answer
  if (answer) client.setRequestHandler(ElicitRequestSchema, async (request) => (asked.push(request.params.message), answer(request.params.message)))
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', base()), options.headers ? { requestInit: { headers: options.headers } } : {})
  closers.push(() => client.close())
  await client.connect(transport)
  return { client, transport, asked }
}

describe('the v1 SDK client at 2025-11-25', () => {
  it('lists the tools with their metadata and calls one', async () => {
    const { client, transport } = await connect()
    expect(transport.protocolVersion).toBe('2025-11-25')
    expect(client.getServerVersion()).toMatchObject({ name: 'toolroute' })
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(['book-flight', 'confirm-order', 'delete-file', 'generate-report', 'weather-tool'])
    expect(tools.find((tool) => tool.name === 'delete-file')).toMatchObject({ title: 'Delete file', annotations: { destructiveHint: true } })
    expect(tools.find((tool) => tool.name === 'generate-report')?.execution).toEqual({ taskSupport: 'optional' })
    const result = await client.callTool({ name: 'weather-tool', arguments: { location: 'Lisbon' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ location: 'Lisbon', temperatureCelsius: 21, conditions: 'sunny' })
    const invalid = await client.callTool({ name: 'weather-tool', arguments: { location: '' } })
    expect(invalid.isError).toBe(true)
    expect(textOf(invalid)).toMatch(/^INPUT_VALIDATION_FAILED/)
  })

  it('approves a run by answering the approval form: the tool runs once, after the answer', async () => {
    const { client, transport, asked } = await connect({ answer: () => ({ action: 'accept', content: { approved: true } }) })
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const result = await client.callTool({ name: 'delete-file', arguments: { path: '/tmp/v1.txt' } })
    expect(asked).toHaveLength(1)
    expect(result.structuredContent).toEqual({ deleted: '/tmp/v1.txt' })
    // The run is the session's (it sent no credential): HTTP names it by the session.
    const run = await getRun(runOf(result), { 'mcp-session-id': transport.sessionId! })
    expect(run.body).toMatchObject({ status: 'completed', output: { deleted: '/tmp/v1.txt' } })
  })

  it('declines through the form: an isError result, and the tool never runs', async () => {
    const { client, transport } = await connect({ answer: () => ({ action: 'accept', content: { approved: false, reason: 'keep it' } }) })
    const result = await client.callTool({ name: 'delete-file', arguments: { path: '/tmp/keep.txt' } })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    expect((await getRun(runOf(result), { 'mcp-session-id': transport.sessionId! })).body).toMatchObject({ status: 'declined' })
  })

  it('answers a question asked mid-call, and the answer to a suspended run resumes it', async () => {
    const { client, asked } = await connect({
      answer: (message): ElicitResult => (message.startsWith('Place an order') ? { action: 'accept', content: { confirm: true, quantity: 3 } } : { action: 'accept', content: { seat: '14C' } }),
    })
    const order = await client.callTool({ name: 'confirm-order', arguments: { item: 'Tea', quantity: 1 } })
    expect(order.structuredContent).toEqual({ status: 'placed', item: 'Tea', quantity: 3, orderId: 'ord_tea_3' })
    const flight = await client.callTool({ name: 'book-flight', arguments: { from: 'LIS', to: 'OSL' } })
    expect(flight.structuredContent).toEqual({ confirmation: 'LIS-OSL-14C', seat: '14C' })
    expect(asked).toHaveLength(2)
  })

  it('without elicitation (still a session, #45), an approval tool is an isError naming the run, approved over HTTP once', async () => {
    const headers = { authorization: 'Bearer v1-headless' }
    const { client, transport } = await connect({ headers })
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const result = await client.callTool({ name: 'delete-file', arguments: { path: '/tmp/later.txt' } })
    expect(result.isError).toBe(true)
    const runId = runOf(result)
    expect(textOf(result)).toContain(`POST /runs/${runId}/approve`)
    const approve = () => fetch(new URL(`/runs/${runId}/approve`, base()), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' })
    const approved = await approve()
    expect(approved.status).toBe(200)
    expect(await approved.json()).toMatchObject({ status: 'completed', output: { deleted: '/tmp/later.txt' } })
    expect((await approve()).status).toBe(409)
  })
})

describe('cancelling a call from the v1 client (notifications/cancelled)', () => {
  /** A plain tools/call of the background tool, cancelled once its run is under way; its run id. */
  async function cancelPlainCall(principal: string) {
    const headers = { authorization: `Bearer ${principal}` }
    const { client } = await connect({ headers })
    const abort = new AbortController()
    const call = client.callTool({ name: 'generate-report', arguments: { month: '2026-03', delayMs: 3000 } }, CallToolResultSchema, { signal: abort.signal })
    call.catch(() => {})
    // A plain call of a background tool follows its run, which tasks/list lists for the caller.
    const listed = await eventually(
      () => client.experimental.tasks.listTasks(),
      ({ tasks }) => tasks.length > 0,
    )
    const runId = listed.tasks[0]!.taskId
    const cancelledAt = Date.now()
    abort.abort(new Error('stopped by the user'))
    return { client, call, runId, headers, cancelledAt }
  }

  it('the call rejects at once', async () => {
    const { call, cancelledAt } = await cancelPlainCall(`v1-cancel-${crypto.randomUUID()}`)
    await expect(call).rejects.toThrow('stopped by the user')
    expect(Date.now() - cancelledAt).toBeLessThan(1000)
  })

  it('the run of the cancelled call is cancelled, not completed', async () => {
    const { call, runId, headers } = await cancelPlainCall(`v1-cancel-run-${crypto.randomUUID()}`)
    await call.catch(() => {})
    // Past the tool's 3 s: had the run gone on, it would be `completed` by now.
    const run = await eventually(
      () => getRun(runId, headers),
      (current) => current.body.status !== 'running',
    )
    expect(run.body.status).toBe('cancelled')
  })
})

describe("the v1 SDK client's tasks API (2025-11-25)", () => {
  it('its own task stream: taskCreated, then statuses, then the result', async () => {
    const { client } = await connect({ headers: { authorization: `Bearer v1-tasks-${crypto.randomUUID()}` } })
    await client.listTools()
    const kinds: string[] = []
    let output: unknown
    for await (const message of client.experimental.tasks.callToolStream({ name: 'generate-report', arguments: { month: '2026-05', delayMs: 100 } })) {
      kinds.push(message.type)
      if (message.type === 'result') output = message.result.structuredContent
    }
    expect(kinds[0]).toBe('taskCreated')
    expect(kinds.at(-1)).toBe('result')
    expect(output).toEqual({ month: '2026-05', rows: 31 })
  })

  it('a task to cancellation: cancelTask is the run cancel, and a second cancel is refused', async () => {
    const headers = { authorization: `Bearer v1-tasks-${crypto.randomUUID()}` }
    const { client } = await connect({ headers })
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'generate-report', arguments: { month: '2026-06', delayMs: 5000 }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    )
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'working' })
    expect(await client.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'cancelled' })
    expect((await getRun(task.taskId, headers)).body).toMatchObject({ status: 'cancelled' })
    const again = await client.experimental.tasks.cancelTask(task.taskId).catch((error: unknown) => error)
    expect(again).toBeInstanceOf(McpError)
    expect((again as McpError).code).toBe(-32602)
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)
    expect(result.isError).toBe(true)
    expect(textOf(result as Result)).toContain('was cancelled')
  })
})
