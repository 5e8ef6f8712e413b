import { afterEach, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport, type ElicitResult } from '@modelcontextprotocol/client'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'
import { createMemoryMcpSessions } from '../../src/mcp/create-memory-mcp-sessions.ts'
import { askName } from '../fixtures/mcp-tools.ts'
import { bookFlight } from '../../tools/book-flight.ts'
import { deleteFile } from '../../tools/delete-file.ts'
import { indexRepository } from '../../tools/index-repository.ts'
import { legacyTasks, newProgressToken, recordProgress } from '../fixtures/legacy-mcp-tasks.ts'

// createToolApp under Node keeps MCP sessions in this process's memory: one process serves
// every request of a session, so elicitation works without Durable Objects. The client is the
// official SDK (v2) client at its default 2025-11-25 handshake.
const app = createToolApp({ tools: [askName, deleteFile, bookFlight] })
const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

type FormAnswer = NonNullable<ElicitResult['content']>
async function connect(answers: FormAnswer[], headers: Record<string, string> = {}) {
  const client = new Client({ name: 'node-test', version: '1.0.0' }, { capabilities: { elicitation: {} } })
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: answers.shift() ?? {} }))
  const transport = new StreamableHTTPClientTransport(new URL('http://node.test/mcp'), {
    fetch: async (url, init) => app.fetch(new Request(url, init)),
    requestInit: { headers },
  })
  clients.push(client)
  await client.connect(transport)
  return { client, transport }
}

describe('MCP sessions in memory (Node)', () => {
  it('holds a session between requests, so a tool can ask the user mid-call', async () => {
    const { client, transport } = await connect([{ name: 'Ada' }])
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const result = await client.callTool({ name: 'ask-name', arguments: {} })
    expect(result.structuredContent).toEqual({ text: 'Hello, Ada', action: 'accept' })
  })

  it('approves and resumes runs through elicitation on the in-memory run host', async () => {
    const { client } = await connect([{ approved: true }, { seat: '3C' }])
    expect((await client.callTool({ name: 'delete-file', arguments: { path: '/n' } })).structuredContent).toEqual({ deleted: '/n' })
    expect((await client.callTool({ name: 'book-flight', arguments: { from: 'LIS', to: 'BCN' } })).structuredContent).toEqual({
      confirmation: 'LIS-BCN-3C',
      seat: '3C',
    })
  })

  it('answers a session only to its principal, and forgets it on DELETE', async () => {
    const { transport } = await connect([], { authorization: 'Bearer alice' })
    const sessionId = transport.sessionId!
    const list = (authorization: string) =>
      app.fetch(
        new Request('http://node.test/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, authorization },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
        }),
      )
    expect((await list('Bearer mallory')).status).toBe(404)
    const alice = await list('Bearer alice')
    expect(alice.status).toBe(200)
    await alice.text()
    await transport.terminateSession()
    expect((await list('Bearer alice')).status).toBe(404)
  })
})

/** A tool that waits until its call is cancelled, recording that it started and that it was aborted. */
function waitsForAbort() {
  const seen: string[] = []
  const waiting = createTool({
    id: 'waits-for-abort',
    description: 'Waits until its call is cancelled',
    inputSchema: z.object({}),
    execute: (_input, { abortSignal }) =>
      new Promise((_resolve, reject) => {
        seen.push('started')
        abortSignal.addEventListener('abort', () => (seen.push('aborted'), reject(abortSignal.reason)), { once: true })
      }),
  })
  return { seen, waiting }
}

describe('notifications/cancelled in a session', () => {
  it('aborts the call and ends its SSE stream (the SDK sends no response for a cancelled call)', async () => {
    const { seen, waiting } = waitsForAbort()
    const cancelApp = createToolApp({ tools: [waiting] })
    const post = (body: unknown, session?: string) =>
      cancelApp.fetch(
        new Request('http://node.test/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...(session ? { 'mcp-session-id': session } : {}) },
          body: JSON.stringify(body),
        }),
      )
    const opened = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } })
    const session = opened.headers.get('mcp-session-id')!
    await opened.text()
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text()
    const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'waits-for-abort', arguments: {} } }, session)
    expect(call.headers.get('content-type')).toContain('text/event-stream')
    const body = call.text()
    while (!seen.includes('started')) await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'stop' } }, session)).status).toBe(202)
    // Without the close, this read would wait on keep-alives forever (the test would time out).
    await body
    expect(seen).toEqual(['started', 'aborted'])
  })
})

describe('notifications/cancelled for a stateless call (sessions: false)', () => {
  it('aborts the call: the cancel, a request of its own, finds it in this process; the JSON answer ends with 202', async () => {
    const { seen, waiting } = waitsForAbort()
    const statelessApp = createToolApp({ tools: [waiting], mcp: { sessions: false } })
    const post = (body: unknown, authorization: string) =>
      statelessApp.fetch(
        new Request('http://node.test/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization },
          body: JSON.stringify(body),
        }),
      )
    const call = post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'waits-for-abort', arguments: {} } }, 'Bearer ada')
    while (!seen.includes('started')) await new Promise((resolve) => setTimeout(resolve, 5))
    // Another principal's cancel of the same id reaches nothing.
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }, 'Bearer eve')).status).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(seen).toEqual(['started'])
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'stop' } }, 'Bearer ada')).status).toBe(202)
    const answered = await call
    expect(answered.status).toBe(202)
    expect(await answered.text()).toBe('')
    expect(seen).toEqual(['started', 'aborted'])
  })
})

describe('resumable streams in a session (2025-11-25)', () => {
  it('opens each call stream with a priming event (id, retry), and replays what followed it on GET with Last-Event-ID', async () => {
    const echo = createTool({ id: 'echo-later', description: 'Echoes after a moment', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => ({ text }) })
    const resumable = createToolApp({ tools: [echo] })
    const send = (method: 'POST' | 'GET', body: unknown, headers: Record<string, string> = {}) =>
      resumable.fetch(
        new Request('http://node.test/mcp', {
          method,
          headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        }),
      )
    const opened = await send('POST', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } })
    const session = opened.headers.get('mcp-session-id')!
    await opened.text()
    await (await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session })).text()
    const text = await (await send('POST', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo-later', arguments: { text: 'hi' } } }, { 'mcp-session-id': session })).text()
    const frames = text.split('\n\n').filter(Boolean)
    expect(frames[0]).toMatch(/^id: \S+\nretry: 1000\ndata: $/)
    const primingId = /^id: (\S+)/.exec(frames[0]!)![1]!
    expect(frames[1]).toContain('"structuredContent":{"text":"hi"}')
    // The client lost the stream after the priming event: it reconnects and gets the result again.
    const resumed = await send('GET', undefined, { 'mcp-session-id': session, 'last-event-id': primingId })
    expect(resumed.status).toBe(200)
    const reader = resumed.body!.getReader()
    let replayed = ''
    while (!replayed.includes('structuredContent')) replayed += new TextDecoder().decode((await reader.read()).value)
    await reader.cancel()
    expect(replayed).toContain('"id":2')
    // Without Last-Event-ID there is still no standalone stream.
    expect((await send('GET', undefined, { 'mcp-session-id': session })).status).toBe(405)
  })
})

describe('MCP task progress on the in-memory run engine (Node)', () => {
  // Background runs here are attempts in this process; the task keeps its call's progress token on its run.
  const tasksApp = createToolApp({ tools: [indexRepository] })
  const files = ['a.ts', 'bb.ts']

  it.each([
    ['in a session', { elicitation: {} }],
    ['statelessly', {}],
  ] as const)('%s: what the background run writes comes as the call token’s progress on tasks/result', async (_, capabilities) => {
    const client = new Client({ name: 'node-test', version: '1.0.0' }, { capabilities })
    const transport = new StreamableHTTPClientTransport(new URL('http://node.test/mcp'), { fetch: async (url, init) => tasksApp.fetch(new Request(url, init)) })
    clients.push(client)
    await client.connect(transport)
    const progressToken = newProgressToken()
    const received = recordProgress(client)
    const task = await legacyTasks(client).create('index-repository', { repository: 'r', files, delayMs: 30 }, { progressToken })
    const result = await legacyTasks(client).result(task.taskId)
    expect(result.structuredContent).toEqual({ repository: 'r', indexed: 2, tokens: 90 })
    const seen = received.filter((progress) => progress.progressToken === progressToken)
    const written = seen.map((progress) => JSON.parse(progress.message!)).filter((value) => 'file' in value)
    expect(written).toEqual([
      { file: 'a.ts', indexed: 1, total: 2 },
      { file: 'bb.ts', indexed: 2, total: 2 },
    ])
    expect(seen.map((progress) => progress.progress)).toEqual(seen.map((_, index) => index + 1))
  })
})

describe('session caps per principal (a flood of initialize evicts only its own)', () => {
  const sessions = createMemoryMcpSessions({ maxSessions: 10, maxSessionsPerPrincipal: 4 })
  const capped = createToolApp({ tools: [askName], mcp: { sessions: () => sessions } })
  const headersOf = (who: string, sessionId?: string) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(who ? { authorization: `Bearer ${who}` } : {}),
    ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
  })
  const open = async (who: string) => {
    const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'flood', version: '1' } } }
    const response = await capped.fetch(new Request('http://node.test/mcp', { method: 'POST', headers: headersOf(who), body: JSON.stringify(body) }))
    await response.body?.cancel()
    return response.headers.get('mcp-session-id')!
  }
  const alive = async (who: string, sessionId: string) => {
    const response = await capped.fetch(new Request('http://node.test/mcp', { method: 'POST', headers: headersOf(who, sessionId), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) }))
    await response.body?.cancel()
    return response.status === 200
  }

  it("one principal's flood closes its own oldest sessions, never another's", async () => {
    const alice = await open('alice')
    const bob = await open('bob')
    const flood: string[] = []
    for (let index = 0; index < 50; index++) flood.push(await open('mallory'))
    expect([await alive('alice', alice), await alive('bob', bob)]).toEqual([true, true])
    const kept = []
    for (const sessionId of flood) kept.push(await alive('mallory', sessionId))
    // Its allowance, its most recent ones.
    expect(kept.lastIndexOf(false)).toBe(45)
    expect(kept.filter(Boolean)).toHaveLength(4)
  })

  it('a full process closes a session of whoever holds the most (after the test above: mallory, with 4)', async () => {
    const others = [] as [string, string][]
    for (const who of ['light', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']) others.push([who, await open(who)])
    for (const [who, sessionId] of others) expect(await alive(who, sessionId), who).toBe(true)
  })

  it('sessions without a credential (each its own principal) share one allowance: their flood closes only theirs', async () => {
    const own = createMemoryMcpSessions({ maxSessions: 10, maxSessionsPerPrincipal: 4 })
    const app = createToolApp({ tools: [askName], mcp: { sessions: () => own } })
    const send = async (who: string, body: unknown, sessionId?: string) => {
      const response = await app.fetch(new Request('http://node.test/mcp', { method: 'POST', headers: headersOf(who, sessionId), body: JSON.stringify(body) }))
      await response.body?.cancel()
      return response
    }
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'flood', version: '1' } } }
    const openAs = async (who: string) => (await send(who, initialize)).headers.get('mcp-session-id')!
    const aliveAs = async (who: string, sessionId: string) => (await send(who, { jsonrpc: '2.0', id: 2, method: 'ping' }, sessionId)).status === 200
    const alice = await openAs('alice')
    const flood: string[] = []
    for (let index = 0; index < 20; index++) flood.push(await openAs(''))
    expect(await aliveAs('alice', alice)).toBe(true)
    const kept = []
    for (const sessionId of flood) kept.push(await aliveAs('', sessionId))
    expect(kept).toEqual([...Array(16).fill(false), true, true, true, true])
  })
})
