// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks, SEP-2663) driven by its official
// requester (@modelcontextprotocol/ext-tasks) over the test Worker: a background tool's run is the
// task, its id the run id; tasks/get reads the run, tasks/update answers its question, tasks/cancel
// cancels it, and another principal's task is not found.
import { SELF } from 'cloudflare:test'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createTaskSessionFromClient, type RawClientDispatch, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client'
import { taskId } from '@modelcontextprotocol/ext-tasks/core'
import { afterEach, describe, expect, it } from 'vitest'
import { as, counter, getRun, uniqueKey } from './run-client.ts'
import { eventually } from './http-client.ts'

const mcpUrl = 'http://tools.test/mcp'
const tasksExtension = 'io.modelcontextprotocol/tasks'
const clientInfo = { name: 'toolroute-tasks-test', version: '1.0.0' }
const openGate = (key: string) => counter(`${key}:gate`).increment()

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close().catch(() => {})))
})

/**
 * The requester's raw path for task traffic (the SDK client's codecs refuse V2 task shapes): one
 * JSON-RPC POST per request, with the routing headers SEP-2243 and SEP-2663 name.
 */
function rawDispatch(headers: Record<string, string>, seen: { method: string; result?: unknown; error?: unknown }[]): RawClientDispatch {
  let id = 0
  return async (request, options) => {
    const message = request as { method: string; params?: { name?: string; taskId?: string } }
    const name = message.method === 'tools/call' ? message.params?.name : message.params?.taskId
    const sent = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': message.method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
      ...headers,
    })
    for (const [header, value] of Object.entries(options?.context?.headers ?? {})) sent.set(header, value)
    const response = await SELF.fetch(mcpUrl, {
      method: 'POST',
      headers: sent,
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, ...message }),
      ...(options?.signal ? { signal: options.signal } : {}),
    })
    const text = await response.text()
    const body = JSON.parse(text.startsWith('{') ? text : (text.match(/^data: (.*)$/m)?.[1] ?? 'null')) as { result?: never; error?: never }
    seen.push({ method: message.method, ...(body.error ? { error: body.error } : { result: body.result }) })
    return body.error ? { kind: 'error', error: body.error } : { kind: 'result', result: body.result! }
  }
}

interface SessionOptions {
  headers?: Record<string, string>
  /** The user: answers each question the task asks. */
  answer?: (params: { message: string; requestedSchema?: unknown }) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }
}

async function connectTasks(options: SessionOptions = {}) {
  const headers = options.headers ?? {}
  const clientCapabilities = { elicitation: { form: {} }, extensions: { [tasksExtension]: {} } }
  const client = new Client(clientInfo, { capabilities: clientCapabilities, versionNegotiation: { mode: 'auto' } })
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    fetch: (url, init) => {
      const merged = new Headers(init?.headers)
      for (const [name, value] of Object.entries(headers)) merged.set(name, value)
      return SELF.fetch(url, { ...init, headers: merged })
    },
  })
  await client.connect(transport)
  open.push(client)
  const seen: { method: string; result?: unknown; error?: unknown }[] = []
  const questions: { message: string; requestedSchema?: unknown }[] = []
  const session: TaskEnabledSession = createTaskSessionFromClient(client, {
    endpointId: 'toolroute-test',
    rawDispatch: rawDispatch(headers, seen),
    v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities },
    ...(options.answer
      ? {
          onInputRequest: async (request) => {
            if (request.kind !== 'elicitation') throw new Error(`unexpected ${request.kind}`)
            const params = request.params as { message: string; requestedSchema?: unknown }
            questions.push(params)
            return options.answer!(params) as never
          },
        }
      : {}),
  })
  open.push(session)
  return { client, session, seen, questions }
}

describe('MCP tasks extension (2026-07-28, ext-tasks requester)', () => {
  it('announces the extension in server/discover only to a client that declares it, ', async () => {
    const { client } = await connectTasks()
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    expect(client.getServerCapabilities()?.extensions?.[tasksExtension]).toEqual({})
    expect(client.getServerCapabilities()?.tasks).toBeUndefined()

    const plain = new Client(clientInfo, { capabilities: {}, versionNegotiation: { mode: 'auto' } })
    await plain.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { fetch: (url, init) => SELF.fetch(url, init) }))
    open.push(plain)
    expect(plain.getServerCapabilities()?.extensions?.[tasksExtension]).toBeUndefined()
  })

  it('creates a task for a background tool, gets it while it works, and settles with its result: the run behind it', async () => {
    const key = uniqueKey('task-create')
    const { session, seen } = await connectTasks({ headers: as('alice-modern-tasks') })
    const execution = await session.callTool('gated-background', { key, steps: 1 })
    expect(execution.kind).toBe('task')
    if (execution.kind !== 'task') return
    const created = seen.find((entry) => entry.method === 'tools/call')!.result as Record<string, unknown>
    expect(created).toMatchObject({ resultType: 'task', taskId: execution.handle.taskId, status: 'working', pollIntervalMs: 1000 })
    expect(created).not.toHaveProperty('task')
    expect(created).not.toHaveProperty('requestState')
    // The task id is the run id: the same run over HTTP, for the same principal.
    const run = (await (await getRun(execution.handle.taskId, { auth: 'alice-modern-tasks' })).json()) as Record<string, unknown>
    expect(run).toMatchObject({ runId: execution.handle.taskId, status: 'running' })
    const working = await session.task(execution.handle.taskId).snapshot()
    expect(working).toMatchObject({ status: 'working' })
    await openGate(key)
    const { outcome } = await execution.settle()
    expect(outcome.status).toBe('completed')
    expect(outcome.status === 'completed' && outcome.result).toMatchObject({ structuredContent: { steps: 1 } })
    const got = seen.filter((entry) => entry.method === 'tasks/get').at(-1)!.result as Record<string, unknown>
    expect(got).toMatchObject({ resultType: 'complete', status: 'completed', result: { resultType: 'complete', structuredContent: { steps: 1 } } })
    expect(await counter(key).count()).toBe(1)
  })

  it('answers a suspended task through tasks/update: the run resumes once and completes', async () => {
    const key = uniqueKey('task-update')
    const { session, seen, questions } = await connectTasks({ headers: as('alice-modern-tasks'), answer: () => ({ action: 'accept', content: { answer: 'teal' } }) })
    const execution = await session.callTool('suspending-background', { key })
    expect(execution.kind).toBe('task')
    const { outcome } = await execution.settle()
    expect(outcome.status === 'completed' && outcome.result).toMatchObject({ structuredContent: { answer: 'teal', executions: 1 } })
    expect(questions).toHaveLength(1)
    expect(questions[0]!.message).toContain('Which colour?')
    const waiting = seen.find((entry) => (entry.result as { status?: string } | undefined)?.status === 'input_required')!.result as { inputRequests: Record<string, { method: string }> }
    expect(Object.values(waiting.inputRequests)).toEqual([expect.objectContaining({ method: 'elicitation/create' })])
    expect(seen.find((entry) => entry.method === 'tasks/update')!.result).toEqual(expect.objectContaining({ resultType: 'complete' }))
    expect(await counter(key).count()).toBe(1)
  })

  it('a task that asks two questions at once mid-execute: tasks/update answers one, the other stays pending, then it completes once', async () => {
    const key = uniqueKey('task-questions')
    const { session } = await connectTasks({ headers: as('alice-modern-tasks') })
    const execution = await session.callTool('asking-background', { key })
    if (execution.kind !== 'task') throw new Error('expected a task')
    const task = session.task(execution.handle.taskId)
    const both = await eventually(() => task.snapshot(), (view) => Object.keys((view.raw as { inputRequests?: object }).inputRequests ?? {}).length === 2)
    expect(both.status).toBe('input_required')
    const asked = (both.raw as { inputRequests: Record<string, { method: string; params: { message: string } }> }).inputRequests
    expect(asked.colour).toMatchObject({ method: 'elicitation/create', params: { message: 'Which colour?' } })
    const sizeKey = Object.keys(asked).find((name) => name !== 'colour')!
    // One answer, and a key that names no question (ignored): the other question stays.
    await task.update({ colour: { action: 'accept', content: { colour: 'teal' } }, unknown: { action: 'accept', content: {} } })
    const one = await task.snapshot()
    expect(one.status).toBe('input_required')
    expect(Object.keys((one.raw as { inputRequests: object }).inputRequests)).toEqual([sizeKey])
    // Answering it again changes nothing: it was answered once.
    await task.update({ colour: { action: 'accept', content: { colour: 'red' } } })
    await task.update({ [sizeKey]: { action: 'accept', content: { size: 'large' } } })
    const done = await eventually(() => task.snapshot(), (view) => view.status === 'completed')
    expect((done.raw as { result: unknown }).result).toMatchObject({ structuredContent: { colour: 'teal', size: 'large', executions: 1 } })
    expect(await counter(key).count()).toBe(1)
    await execution.detach()
  })

  it('a tool that asks before its task (mcp.askBeforeTask): the call answers its question inline, the retry with the answer is the task', async () => {
    const key = uniqueKey('task-ask-first')
    const { session, seen } = await connectTasks({ headers: as('alice-modern-tasks') })
    // The requester's raw path carries inputResponses and requestState on a retry as the suite does.
    const dispatch = rawDispatch(as('alice-modern-tasks'), seen)
    const meta = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { [tasksExtension]: {} } } }
    const call = async (params: Record<string, unknown>) => {
      const answer = await dispatch({ method: 'tools/call', params: { name: 'ask-first-background', arguments: { key }, ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': clientInfo, ...meta } } } as never)
      if (answer.kind !== 'result') throw new Error(JSON.stringify(answer))
      return answer.result as Record<string, any>
    }
    const first = await call({})
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } })
    expect(first).not.toHaveProperty('taskId')
    const second = await call({ inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } }, requestState: first.requestState })
    expect(second).toMatchObject({ resultType: 'task', taskId: expect.any(String) })
    expect(second).not.toHaveProperty('requestState')
    const done = await eventually(() => session.task(second.taskId).snapshot(), (view) => view.status === 'completed')
    expect((done.raw as { result: unknown }).result).toMatchObject({ structuredContent: { greeting: 'Hello, Alice!', executions: 1 } })
    expect(await counter(key).count()).toBe(1)
  })

  it('approves a background run that needs approval through tasks/update, then it runs once in the background', async () => {
    const key = uniqueKey('task-approve')
    const { session, questions } = await connectTasks({ headers: as('alice-modern-tasks'), answer: () => ({ action: 'accept', content: { approved: true } }) })
    const execution = await session.callTool('approved-background', { key })
    expect(execution.kind).toBe('task')
    const { outcome } = await execution.settle()
    expect(outcome.status === 'completed' && outcome.result).toMatchObject({ structuredContent: { executions: 1 } })
    expect(questions[0]!.message).toMatch(/^Allow approved-background to run/)
    expect(await counter(key).count()).toBe(1)
  })

  it('refuses an answer that fails resumeSchema (-32602) and keeps the task waiting', async () => {
    const key = uniqueKey('task-bad-answer')
    const { session } = await connectTasks({ headers: as('alice-modern-tasks') })
    const execution = await session.callTool('suspending-background', { key })
    if (execution.kind !== 'task') throw new Error('expected a task')
    const task = session.task(execution.handle.taskId)
    const waiting = await eventually(() => task.snapshot(), (view) => view.status === 'input_required')
    const inputKey = Object.keys((waiting.raw as { inputRequests: Record<string, unknown> }).inputRequests)[0]!
    await expect(task.update({ [inputKey]: { action: 'accept', content: { answer: 'NOT LOWER' } } })).rejects.toMatchObject({ code: -32602 })
    expect((await task.snapshot()).status).toBe('input_required')
    await task.update({ [inputKey]: { action: 'accept', content: { answer: 'ok' } } })
    await eventually(() => task.snapshot(), (view) => view.status === 'completed')
    await execution.detach()
  })

  it('cancels a working task: tasks/cancel acknowledges, the run is cancelled and its tool stops', async () => {
    const key = uniqueKey('task-cancel')
    const { session, seen } = await connectTasks({ headers: as('alice-modern-tasks') })
    const execution = await session.callTool('gated-background', { key, steps: 1 })
    if (execution.kind !== 'task') throw new Error('expected a task')
    await execution.cancel()
    expect(seen.find((entry) => entry.method === 'tasks/cancel')!.result).toEqual(expect.objectContaining({ resultType: 'complete' }))
    const view = await eventually(() => session.task(execution.handle.taskId).snapshot(), (task) => task.status === 'cancelled')
    expect(view.status).toBe('cancelled')
    const run = (await (await getRun(execution.handle.taskId, { auth: 'alice-modern-tasks' })).json()) as Record<string, unknown>
    expect(run).toMatchObject({ status: 'cancelled' })
    await openGate(key)
    expect(await counter(key).count()).toBe(0)
    // Cancelling a settled task acknowledges the same way.
    await session.task(execution.handle.taskId).cancel()
  })

  it("another principal's task is not found (-32602), for get, update and cancel", async () => {
    const key = uniqueKey('task-principal')
    const alice = await connectTasks({ headers: as('alice-modern-tasks') })
    const execution = await alice.session.callTool('gated-background', { key, steps: 1 })
    if (execution.kind !== 'task') throw new Error('expected a task')
    const bob = await connectTasks({ headers: as('bob-modern-tasks') })
    const theirs = bob.session.task(taskId(execution.handle.taskId))
    await expect(theirs.snapshot()).rejects.toMatchObject({ code: -32602 })
    await expect(theirs.update({ anything: { action: 'accept', content: {} } })).rejects.toMatchObject({ code: -32602 })
    await expect(theirs.cancel()).rejects.toMatchObject({ code: -32602 })
    expect((await alice.session.task(execution.handle.taskId).snapshot()).status).toBe('working')
    await execution.cancel()
  })

  it("a tool's own failure is a completed task whose result isError; an attempt the host gave up on (timeoutMs) is a failed task", async () => {
    const { session, seen } = await connectTasks({ headers: as('alice-modern-tasks') })
    const failing = await session.callTool('flaky-background', { key: uniqueKey('task-tool-error'), failures: 5 })
    const { outcome } = await failing.settle()
    expect(outcome.status).toBe('completed')
    expect(outcome.status === 'completed' && outcome.result).toMatchObject({ isError: true })
    const timedOut = await session.callTool('timeout-background', { key: uniqueKey('task-host-failure') })
    const ended = await timedOut.settle()
    expect(ended.outcome.status).toBe('failed')
    const got = seen.filter((entry) => entry.method === 'tasks/get').at(-1)!.result as Record<string, unknown>
    expect(got).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.stringMatching(/timeout/) } })
    expect(got).not.toHaveProperty('result')
  })

  it("a tool whose calls must be tasks (mcp.taskSupport: 'required') refuses a client without the extension (-32021), before it runs", async () => {
    const key = uniqueKey('task-required')
    const plain = new Client(clientInfo, { capabilities: {}, versionNegotiation: { mode: 'auto' } })
    await plain.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { fetch: (url, init) => SELF.fetch(url, init) }))
    open.push(plain)
    await expect(plain.callTool({ name: 'required-task-background', arguments: { key } })).rejects.toMatchObject({ code: -32021 })
    expect(await counter(key).count()).toBe(0)
    const { session } = await connectTasks()
    const execution = await session.callTool('required-task-background', { key })
    expect(execution.kind).toBe('task')
    const { outcome } = await execution.settle()
    expect(outcome.status === 'completed' && outcome.result).toMatchObject({ structuredContent: { executions: 1 } })
  })

  it('without the extension declared, tasks/* answer -32021 and a background tool is followed to its end', async () => {
    const post = (method: string, params: Record<string, unknown>) =>
      SELF.fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': String(params.taskId ?? params.name) },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': clientInfo, 'io.modelcontextprotocol/clientCapabilities': {} } },
        }),
      }).then(async (response) => {
        const text = await response.text()
        return JSON.parse(text.startsWith('{') ? text : text.match(/^data: (.*)$/m)![1]!) as { result?: Record<string, unknown>; error?: { code: number; data?: unknown } }
      })
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const answer = await post(method, { taskId: crypto.randomUUID(), inputResponses: {} })
      expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } } })
    }
    const called = await post('tools/call', { name: 'generate-report', arguments: { month: '2026-03', delayMs: 10 } })
    expect(called.result).toMatchObject({ resultType: 'complete' })
    expect(called.result).not.toHaveProperty('taskId')
  })
})
