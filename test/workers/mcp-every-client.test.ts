// Issue #45, MCP: every 2025 client can cancel its own call and nobody else's (a session for every
// `initialize`, even without elicitation or Authorization), session ids are the server's, a session's
// waiting task says how to reach its run over HTTP, and the tasks extension's requester at 2025-11-25
// (which only polls tasks/get) is asked its task's question there. On the real Worker entry (SELF).
import { SELF, env, runInDurableObject } from 'cloudflare:test'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client'
import { afterEach, describe, expect, it } from 'vitest'
import { closeAll, connectMcp, mcpUrl } from './mcp-client.ts'
import { eventually, readProbe } from './http-client.ts'
import { legacyTasks } from '../fixtures/legacy-mcp-tasks.ts'
import { counter } from './run-client.ts'

afterEach(closeAll)

const post = (body: unknown, headers: Record<string, string> = {}) =>
  SELF.fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(body),
  })
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }
const cancel = (requestId: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'not yours' } })

describe('a 2025 client without elicitation or Authorization (mcp-remote, the Inspector, the SDKs by default)', () => {
  it('gets a session, so its notifications/cancelled aborts its call; no other client reaches it', async () => {
    const key = `anonymous-cancel-${crypto.randomUUID()}`
    const { client, transport } = await connectMcp()
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const abort = new AbortController()
    const call = client.callTool({ name: 'abort-recorder', arguments: { key, ms: 20_000 } }, { signal: abort.signal })
    await eventually(() => readProbe(key), (entries) => entries.includes('started'))
    // Others name its request id: statelessly, and from a session of their own.
    for (const requestId of [0, 1, 2, 3]) expect((await post(cancel(requestId))).status).toBe(202)
    const other = await connectMcp()
    for (const requestId of [0, 1, 2, 3]) await other.client.notification(cancel(requestId) as never)
    expect(await readProbe(key)).toEqual(['started'])
    abort.abort(new Error('the user stopped it'))
    await expect(call).rejects.toThrow()
    const entries = await eventually(() => readProbe(key), (seen) => seen.length > 1)
    expect(entries[1]).toMatch(/^aborted/)
  })
})

describe('session ids are the server’s', () => {
  it('an initialize carrying a made-up Mcp-Session-Id opens a session under an id the server made; the made-up one names nothing', async () => {
    const madeUp = crypto.randomUUID()
    const opened = await post(initialize, { 'mcp-session-id': madeUp })
    expect(opened.status).toBe(200)
    const assigned = opened.headers.get('mcp-session-id')
    await opened.body?.cancel()
    expect(assigned).toMatch(/^[0-9a-f-]{36}$/)
    expect(assigned).not.toBe(madeUp)
    const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': madeUp })
    expect(listed.status).toBe(404)
    await listed.body?.cancel()
    const saved = await runInDurableObject(env.TOOLROUTE_MCP.get(env.TOOLROUTE_MCP.idFromName(madeUp)), (_instance, state) => state.storage.get('session'))
    expect(saved).toBeUndefined()
  })
})

describe("a session's waiting task", () => {
  it('says in its statusMessage which header reaches its run over HTTP', async () => {
    const { client, transport } = await connectMcp({ elicitation: () => ({ action: 'cancel' }) })
    const task = await legacyTasks(client).create('approved-background', { key: `status-${crypto.randomUUID()}` })
    expect(task.status).toBe('input_required')
    expect(task.statusMessage).toContain(`POST /runs/${task.taskId}/approve`)
    expect(task.statusMessage).toContain(`Mcp-Session-Id: ${transport.sessionId}`)
  })
})

describe('the tasks extension’s requester at 2025-11-25 (ext-tasks over the SDK v2 client)', () => {
  it('is asked a waiting task’s question on the tasks/get it polls, and the task settles once', async () => {
    const key = `requester-v1-${crypto.randomUUID()}`
    const client = new Client({ name: 'toolroute-requester', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { fetch: (url, init) => SELF.fetch(url, init) }))
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25')
    const asked: unknown[] = []
    const session = createTaskSessionFromClient(client, {
      endpointId: 'toolroute-v1',
      onInputRequest: async (request, context) => {
        asked.push({ kind: request.kind, scope: context.scope })
        return { action: 'accept', content: { approved: true } } as never
      },
    })
    try {
      const execution = await session.callTool('approved-background', { key }, { task: { preference: 'prefer' } })
      expect(execution.kind).toBe('task')
      const { outcome } = await execution.settle()
      expect(outcome.status).toBe('completed')
      expect(outcome.status === 'completed' && outcome.result).toMatchObject({ structuredContent: { executions: 1 } })
      expect(asked).toEqual([{ kind: 'elicitation', scope: 'task' }])
      expect(await counter(key).count()).toBe(1)
    } finally {
      await session.close()
      await client.close()
    }
  })
})
