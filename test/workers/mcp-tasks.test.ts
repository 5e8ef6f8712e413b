// Background tools as MCP tasks (2025-11-25) with the SDK v2 client over the test Worker: the task
// is the run in its Durable Object, listed per principal through the `index:<principal>` object.
// (v1's own task stream, `experimental.tasks.callToolStream`, is driven in examples/mcp-clients.)
import { SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { Client as ModernClient, ProtocolError, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client'
import { closeAll, connectMcp, mcpUrl, textOf } from './mcp-client.ts'
import { legacyTasks, newProgressToken, recordProgress, type ProgressSeen } from '../fixtures/legacy-mcp-tasks.ts'
import { getRun as fetchRun } from './run-client.ts'

const getRun = async (runId: string, options: { auth: string }) => ({ body: (await (await fetchRun(runId, options)).json()) as Record<string, unknown> })
import { eventually } from './http-client.ts'

afterEach(closeAll)

const alice = { authorization: 'Bearer alice-tasks' }
const bob = { authorization: 'Bearer bob-tasks' }

type McpClient = Awaited<ReturnType<typeof connectMcp>>['client']

/** A task-augmented tools/call; with `progressToken`, its call carries that token. */
const createTask = (client: McpClient, args: Record<string, unknown>, name = 'generate-report', progressToken?: number) =>
  legacyTasks(client).create(name, args, progressToken !== undefined ? { progressToken } : {})

describe('MCP tasks (2025-11-25)', () => {
  it('lists a background tool with execution.taskSupport, and declares the tasks capability', async () => {
    const { client } = await connectMcp()
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25')
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } })
    const { tools } = await client.listTools()
    expect(tools.find((tool) => tool.name === 'generate-report')?.execution).toEqual({ taskSupport: 'optional' })
    expect(tools.find((tool) => tool.name === 'weather-tool')?.execution).toBeUndefined()
  })

  it('a task to completion: tools/call answers the task at once, tasks/get polls the run, tasks/result is its output', async () => {
    const { client } = await connectMcp({ headers: alice })
    const task = await createTask(client, { month: '2026-03', delayMs: 300 })
    expect(task).toMatchObject({ status: 'working', ttl: null, pollInterval: 1000 })
    // The task id is the run id: the same run over HTTP, for the same principal.
    expect((await getRun(task.taskId, { auth: 'alice-tasks' })).body).toMatchObject({ runId: task.taskId, status: 'running' })
    const done = await eventually(
      () => legacyTasks(client).get(task.taskId),
      (current) => current.status !== 'working',
    )
    expect(done).toMatchObject({ taskId: task.taskId, status: 'completed', createdAt: task.createdAt })
    const result = await legacyTasks(client).result(task.taskId)
    expect(result.structuredContent).toEqual({ month: '2026-03', rows: 31 })
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId: task.taskId })
  })

  it('tasks/result blocks until the run settles', async () => {
    const { client } = await connectMcp({ headers: alice })
    const task = await createTask(client, { month: '2026-04', delayMs: 200 })
    const result = await legacyTasks(client).result(task.taskId)
    expect(result.structuredContent).toEqual({ month: '2026-04', rows: 31 })
  })

  it('a task that needs approval is input_required; tasks/result asks by elicitation, and the tool runs once', async () => {
    const key = `task-approval-${crypto.randomUUID()}`
    const { client, questions } = await connectMcp({ headers: alice, elicitation: () => ({ action: 'accept', content: { approved: true } }) })
    const task = await createTask(client, { key }, 'approved-background')
    expect(task).toMatchObject({ status: 'input_required', statusMessage: expect.stringContaining('approve') })
    const result = await legacyTasks(client).result(task.taskId)
    expect(questions).toHaveLength(1)
    expect(result.structuredContent).toEqual({ executions: 1 })
    expect(await legacyTasks(client).get(task.taskId)).toMatchObject({ status: 'completed' })
    // Read again: the settled run's result, not a second execution.
    expect((await legacyTasks(client).result(task.taskId)).structuredContent).toEqual({ executions: 1 })
  })

  it('without elicitation, tasks/result of a waiting task names the HTTP route that approves it', async () => {
    const { client } = await connectMcp({ headers: alice })
    const task = await createTask(client, { key: `task-http-${crypto.randomUUID()}` }, 'approved-background')
    const result = await legacyTasks(client).result(task.taskId)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain(`POST /runs/${task.taskId}/approve`)
    expect(await legacyTasks(client).get(task.taskId)).toMatchObject({ status: 'input_required' })
  })

  it('a task to cancellation: tasks/cancel is the run cancel, the attempt is aborted, and a second cancel is refused', async () => {
    const { client } = await connectMcp({ headers: alice })
    const task = await createTask(client, { month: '2026-06', delayMs: 5000 })
    const cancelled = await legacyTasks(client).cancel(task.taskId)
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' })
    expect((await getRun(task.taskId, { auth: 'alice-tasks' })).body).toMatchObject({ status: 'cancelled' })
    expect(await legacyTasks(client).get(task.taskId)).toMatchObject({ status: 'cancelled' })
    const again = await legacyTasks(client).cancel(task.taskId).catch((error: unknown) => error)
    expect(again).toBeInstanceOf(ProtocolError)
    expect((again as ProtocolError).code).toBe(-32602)
    const result = await legacyTasks(client).result(task.taskId)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('was cancelled')
  })

  it("tasks/list shows only the caller's tasks, newest first; another principal's task is not found", async () => {
    const a = await connectMcp({ headers: alice })
    const b = await connectMcp({ headers: bob })
    const first = await createTask(a.client, { month: '2026-07', delayMs: 0 })
    const second = await createTask(a.client, { month: '2026-08', delayMs: 0 })
    const bobs = await createTask(b.client, { month: '2026-09', delayMs: 0 })
    const listed = (await legacyTasks(a.client).list()).tasks.map((task) => task.taskId)
    expect(listed.indexOf(second.taskId)).toBeGreaterThanOrEqual(0)
    expect(listed.indexOf(second.taskId)).toBeLessThan(listed.indexOf(first.taskId))
    expect(listed).not.toContain(bobs.taskId)
    expect((await legacyTasks(b.client).list()).tasks.map((task) => task.taskId)).toEqual([bobs.taskId])
    for (const attempt of [
      () => legacyTasks(b.client).get(first.taskId),
      () => legacyTasks(b.client).cancel(first.taskId),
      () => legacyTasks(b.client).result(first.taskId),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ProtocolError)
      expect((error as ProtocolError).code).toBe(-32602)
      expect((error as ProtocolError).message).toContain('Task not found')
    }
    // Bob's attempt to cancel changed nothing.
    expect((await getRun(first.taskId, { auth: 'alice-tasks' })).body.status).not.toBe('cancelled')
  })

  it('a client without a credential or elicitation still has a session (#45), which owns its tasks; a plain call of the tool follows the run', async () => {
    const { client } = await connectMcp()
    const task = await createTask(client, { month: '2026-10', delayMs: 0 })
    expect((await legacyTasks(client).list()).tasks.map((listed) => listed.taskId)).toEqual([task.taskId])
    const plain = await client.callTool({ name: 'generate-report', arguments: { month: '2026-11', delayMs: 0 } })
    expect(plain.structuredContent).toEqual({ month: '2026-11', rows: 31 })
  })

  it("an MCP session without a credential owns its tasks: its tasks/list lists them, another session's does not (SPEC §12)", async () => {
    const mine = await connectMcp({ elicitation: () => ({ action: 'cancel' }) })
    const theirs = await connectMcp({ elicitation: () => ({ action: 'cancel' }) })
    const task = await createTask(mine.client, { month: '2026-05', delayMs: 0 })
    expect((await legacyTasks(mine.client).list()).tasks.map((listed) => listed.taskId)).toContain(task.taskId)
    expect((await legacyTasks(theirs.client).list()).tasks).toEqual([])
    const error = await legacyTasks(theirs.client).get(task.taskId).catch((caught: unknown) => caught)
    expect((error as ProtocolError).code).toBe(-32602)
    // Over HTTP the run answers a request naming the session, and nothing else.
    expect((await SELF.fetch(`http://tools.test/runs/${task.taskId}`)).status).toBe(404)
    expect((await SELF.fetch(`http://tools.test/runs/${task.taskId}`, { headers: { 'mcp-session-id': mine.transport.sessionId! } })).status).toBe(200)
  })

  it('refuses a task-augmented call of a tool that is not a task (-32601), and bad arguments (-32602) without creating a run', async () => {
    const { client } = await connectMcp({ headers: alice })
    const before = (await legacyTasks(client).list()).tasks.length
    const notTask = await createTask(client, { location: 'Lisbon' }, 'weather-tool').catch((error: unknown) => error)
    expect((notTask as ProtocolError).code).toBe(-32601)
    const invalid = await createTask(client, { month: 'March' }).catch((error: unknown) => error)
    expect((invalid as ProtocolError).code).toBe(-32602)
    expect((invalid as ProtocolError).message).toContain('INPUT_VALIDATION_FAILED')
    expect((await legacyTasks(client).list()).tasks.length).toBe(before)
    const unknown = await legacyTasks(client).get('00000000-0000-4000-8000-000000000000').catch((error: unknown) => error)
    expect((unknown as ProtocolError).code).toBe(-32602)
  })

  it('works statelessly too (no session): tasks/* are plain requests on the run host', async () => {
    const post = async (body: unknown) => {
      const response = await SELF.fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...alice },
        body: JSON.stringify(body),
      })
      return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number } }
    }
    const created = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'generate-report', arguments: { month: '2026-12', delayMs: 0 }, task: {} } })
    const taskId = (created.result?.task as { taskId: string }).taskId
    const settled = await eventually(
      () => post({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId } }),
      (answer) => answer.result?.status === 'completed',
    )
    expect(settled.result).toMatchObject({ taskId, status: 'completed' })
    const result = await post({ jsonrpc: '2.0', id: 3, method: 'tasks/result', params: { taskId } })
    expect(result.result?.structuredContent).toEqual({ month: '2026-12', rows: 31 })
  })
})

describe('MCP task progress (2025-11-25): the call\'s progressToken stays the task\'s until it settles', () => {
  const files = ['a.ts', 'bb.ts', 'ccc.ts']
  // A session (a client that declares elicitation gets one), and a stateless client (one that does not).
  const inSession = () => connectMcp({ headers: alice, elicitation: () => ({ action: 'cancel' }) })
  const stateless = () => connectMcp({ headers: alice })
  /**
   * A task of index-repository (which streams each file with writer.write), its call carrying a
   * progress token of its own; `seen()` is every progress the client got under that token.
   */
  const progressTask = async (client: McpClient, delayMs: number) => {
    const progressToken = newProgressToken()
    const received = recordProgress(client)
    const task = await createTask(client, { repository: 'toolroute', files, delayMs }, 'index-repository', progressToken)
    return { task, seen: () => received.filter((progress) => progress.progressToken === progressToken) }
  }
  // The stored values (writer.write); the transient status parts reach only a live reader, and may come too.
  const written = (seen: ProgressSeen[]) => seen.filter((progress) => (progress._meta?.['toolroute/event'] as { type?: string } | undefined)?.type === 'data-tool-output')

  it.each([['in a session', inSession], ['statelessly', stateless]] as const)('%s: what the run streams comes as progress on tasks/result, with the task named, then the result; nothing after', async (_, connect) => {
    const { client } = await connect()
    const { task, seen } = await progressTask(client, 60)
    const result = await legacyTasks(client).result(task.taskId)
    expect(result.structuredContent).toEqual({ repository: 'toolroute', indexed: 3, tokens: 150 })
    expect(written(seen()).map((progress) => JSON.parse(progress.message!))).toEqual(files.map((file, index) => ({ file, indexed: index + 1, total: 3 })))
    const counts = seen().map((progress) => progress.progress)
    expect(counts).toEqual([...counts].sort((a, b) => a - b))
    expect(new Set(counts).size).toBe(counts.length)
    for (const progress of seen()) expect(progress._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId: task.taskId })
    // Settled: a second tasks/result is the same result and no more progress.
    const before = seen().length
    expect((await legacyTasks(client).result(task.taskId)).structuredContent).toEqual(result.structuredContent)
    expect(seen()).toHaveLength(before)
  })

  it.each([['in a session', inSession], ['statelessly', stateless]] as const)('%s: values streamed before tasks/result is asked are sent when it is, first; a task settled before gets its result alone', async (_, connect) => {
    const { client } = await connect()
    const { task, seen } = await progressTask(client, 150)
    // The first file is indexed (and its value stored) before tasks/result is asked.
    await eventually(
      async () => (await getRun(task.taskId, { auth: 'alice-tasks' })).body,
      (run) => (run.transcript as { type?: string }[]).some((event) => event.type === 'data-tool-output'),
    )
    expect(seen()).toEqual([])
    const result = await legacyTasks(client).result(task.taskId)
    expect(result.structuredContent).toEqual({ repository: 'toolroute', indexed: 3, tokens: 150 })
    expect(written(seen()).map((progress) => JSON.parse(progress.message!).file)).toEqual(files)
    expect(written(seen())[0]!.progress).toBe(1)

    // Settled before anyone asked: no progress (it ends with the task), the result as ever.
    const settled = await progressTask(client, 0)
    await eventually(
      () => legacyTasks(client).get(settled.task.taskId),
      (current) => current.status === 'completed',
    )
    expect((await legacyTasks(client).result(settled.task.taskId)).structuredContent).toMatchObject({ indexed: 3 })
    expect(settled.seen()).toEqual([])
  })

  it('a task whose call carried no token gets no progress', async () => {
    const { client } = await inSession()
    const notified: unknown[] = []
    client.fallbackNotificationHandler = async (notification) => void notified.push(notification)
    const progress = recordProgress(client)
    const task = await createTask(client, { repository: 'toolroute', files, delayMs: 0 }, 'index-repository')
    expect((await legacyTasks(client).result(task.taskId)).structuredContent).toMatchObject({ indexed: 3 })
    expect(notified.filter((notification) => (notification as { method?: string }).method === 'notifications/progress')).toEqual([])
    expect(progress).toEqual([])
  })
})

describe('under 2026-07-28 (the SDK v2 has no tasks extension runtime yet)', () => {
  it('lists no taskSupport and declares no tasks: a background tool is followed within the call', async () => {
    const client = new ModernClient({ name: 'tasks-modern-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    await client.connect(new ModernTransport(new URL(mcpUrl), { fetch: (url, init) => SELF.fetch(url, init) }))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      expect(client.getServerCapabilities()?.tasks).toBeUndefined()
      const { tools } = await client.listTools()
      expect(tools.find((tool) => tool.name === 'generate-report')).toBeDefined()
      expect(tools.find((tool) => tool.name === 'generate-report')?.execution).toBeUndefined()
      const result = await client.callTool({ name: 'generate-report', arguments: { month: '2027-01', delayMs: 0 } })
      expect(result.structuredContent).toEqual({ month: '2027-01', rows: 31 })
    } finally {
      await client.close()
    }
  })
})
