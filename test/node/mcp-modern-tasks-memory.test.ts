// The 2026-07-28 tasks extension on the in-process run host (createToolApp under Node, as under
// Deno): the same tasks/get, tasks/update and tasks/cancel over runs held in this process's memory,
// driven by the official requester (@modelcontextprotocol/ext-tasks).
import { afterEach, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createTaskSessionFromClient, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'

let executions = 0
const askColour = createTool({
  id: 'ask-colour',
  description: 'Runs in the background, asks for a colour, then answers with it',
  inputSchema: z.object({}),
  outputSchema: z.object({ colour: z.string() }),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ colour: z.string() }),
  background: { enabled: true, timeoutMs: 10_000 },
  execute: async (_input, { resumeData, suspend }) => {
    if (!resumeData) return suspend({ question: 'Which colour?' })
    executions++
    return { colour: resumeData.colour }
  },
})
const waitForAbort = createTool({
  id: 'wait-for-abort',
  description: 'Runs in the background until it is cancelled',
  inputSchema: z.object({}),
  background: { enabled: true, timeoutMs: 10_000 },
  execute: (_input, { abortSignal }) => new Promise((_resolve, reject) => abortSignal.addEventListener('abort', () => reject(abortSignal.reason), { once: true })),
})

const askTwice = createTool({
  id: 'ask-twice',
  description: 'Runs in the background and asks two questions at once, mid-execute',
  inputSchema: z.object({}),
  outputSchema: z.object({ answers: z.array(z.string()) }),
  background: { enabled: true, timeoutMs: 10_000 },
  execute: async (_input, { mcp }) => {
    const form = { message: 'Which word?', requestedSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } }
    const answers = await Promise.all([mcp!.elicitation.sendRequest(form, { key: 'first' }), mcp!.elicitation.sendRequest(form, { key: 'second' })])
    return { answers: answers.map((answer) => String(answer.content?.word)) }
  },
})

const greetAfterAsking = createTool({
  id: 'greet-after-asking',
  description: 'Asks for a name in the call, then greets from a task',
  inputSchema: z.object({}),
  background: { enabled: true, timeoutMs: 10_000 },
  mcp: { taskSupport: 'required', askBeforeTask: true },
  execute: async (_input, { mcp }) => {
    const answer = await mcp!.elicitation.sendRequest({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { key: 'user_name' })
    return `Hello, ${String(answer.content?.name)}!`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

const app = createToolApp({ tools: [askColour, waitForAbort, askTwice, greetAfterAsking] })

/** One 2026-07-28 request of a client of the tasks extension, its JSON-RPC result or error. */
async function rpc(method: string, params: Record<string, unknown>) {
  const name = String(params.name ?? params.taskId)
  const response = await app.fetch(
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name, authorization: 'Bearer node-alice' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': clientInfo, 'io.modelcontextprotocol/clientCapabilities': clientCapabilities } } }),
    }),
  )
  const text = await response.text()
  return (JSON.parse(text.startsWith('{') ? text : text.match(/^data: (.*)$/m)![1]!) as { result: Record<string, any> }).result
}
const url = 'http://node.test/mcp'
const tasksExtension = 'io.modelcontextprotocol/tasks'
const clientInfo = { name: 'node-tasks-test', version: '1.0.0' }
const clientCapabilities = { elicitation: { form: {} }, extensions: { [tasksExtension]: {} } }

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close().catch(() => {})))
})

function rawDispatch(headers: Record<string, string>): RawClientDispatch {
  let id = 0
  return async (request, options) => {
    const message = request as { method: string; params?: { name?: string; taskId?: string } }
    const name = message.method === 'tools/call' ? message.params?.name : message.params?.taskId
    const sent = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': message.method, ...headers })
    if (name !== undefined) sent.set('mcp-name', name)
    for (const [header, value] of Object.entries(options?.context?.headers ?? {})) sent.set(header, value)
    const response = await app.fetch(new Request(url, { method: 'POST', headers: sent, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, ...message }) }))
    const text = await response.text()
    const body = JSON.parse(text.startsWith('{') ? text : (text.match(/^data: (.*)$/m)?.[1] ?? 'null')) as { result?: never; error?: never }
    return body.error ? { kind: 'error', error: body.error } : { kind: 'result', result: body.result! }
  }
}

async function connectTasks(headers: Record<string, string>, answer?: Record<string, unknown>) {
  const client = new Client(clientInfo, { capabilities: clientCapabilities, versionNegotiation: { mode: 'auto' } })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: async (input, init) => app.fetch(new Request(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), ...headers } })) }))
  open.push(client)
  const session = createTaskSessionFromClient(client, {
    endpointId: 'node-test',
    rawDispatch: rawDispatch(headers),
    v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities },
    ...(answer ? { onInputRequest: async () => ({ action: 'accept', content: answer }) as never } : {}),
  })
  open.push(session)
  return session
}

describe('MCP tasks extension on the in-process run host (Node)', () => {
  it('a suspended background run is a task answered through tasks/update: it resumes once and completes', async () => {
    const session = await connectTasks({ authorization: 'Bearer node-alice' }, { colour: 'teal' })
    const execution = await session.callTool('ask-colour', {})
    expect(execution.kind).toBe('task')
    const { outcome } = await execution.settle()
    expect(outcome.status === 'completed' && outcome.result).toMatchObject({ structuredContent: { colour: 'teal' } })
    expect(executions).toBe(1)
  })

  it('a background run asking two questions mid-execute waits on both; tasks/update answers them one at a time', async () => {
    const session = await connectTasks({ authorization: 'Bearer node-alice' })
    const execution = await session.callTool('ask-twice', {})
    if (execution.kind !== 'task') throw new Error('expected a task')
    const task = session.task(execution.handle.taskId)
    const keys = async () => Object.keys(((await task.snapshot()).raw as { inputRequests?: object }).inputRequests ?? {})
    for (let tries = 0; (await keys()).length < 2 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect((await keys()).sort()).toEqual(['first', 'second'])
    await task.update({ second: { action: 'accept', content: { word: 'two' } } })
    expect((await task.snapshot()).status).toBe('input_required')
    expect(await keys()).toEqual(['first'])
    await task.update({ first: { action: 'accept', content: { word: 'one' } } })
    const { outcome } = await execution.settle()
    expect(outcome.status === 'completed' && outcome.result).toMatchObject({ structuredContent: { answers: ['one', 'two'] } })
  })

  it('a tool that asks before its task (mcp.askBeforeTask): its first question is the call\'s input_required, the retry with the answer is the task', async () => {
    const first = await rpc('tools/call', { name: 'greet-after-asking', arguments: {} })
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } })
    expect(first).not.toHaveProperty('taskId')
    const second = await rpc('tools/call', { name: 'greet-after-asking', arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } }, requestState: first.requestState })
    expect(second).toMatchObject({ resultType: 'task', taskId: expect.any(String) })
    expect(second).not.toHaveProperty('requestState')
    let task = await rpc('tasks/get', { taskId: second.taskId })
    for (let tries = 0; task.status !== 'completed' && tries < 100; tries++) task = (await new Promise((resolve) => setTimeout(resolve, 10)), await rpc('tasks/get', { taskId: second.taskId }))
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Hello, Alice!' }] } })
  })

  it("tasks/cancel stops a working task, and another principal's task is not found", async () => {
    const alice = await connectTasks({ authorization: 'Bearer node-alice' })
    const execution = await alice.callTool('wait-for-abort', {})
    if (execution.kind !== 'task') throw new Error('expected a task')
    const bob = await connectTasks({ authorization: 'Bearer node-bob' })
    await expect(bob.task(execution.handle.taskId).snapshot()).rejects.toMatchObject({ code: -32602 })
    await execution.cancel()
    const { outcome } = await execution.settle()
    expect(outcome.status).toBe('cancelled')
  })
})
