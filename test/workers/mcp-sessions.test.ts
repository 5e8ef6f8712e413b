import { SELF, abortAllDurableObjects, env, listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { closeAll, connectMcp, mcpUrl } from './mcp-client.ts'

afterEach(closeAll)

const initialize = (capabilities: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1' } },
})
const post = (body: unknown, headers: Record<string, string> = {}) =>
  SELF.fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  })

const sessionObject = (sessionId: string) => env.TOOLROUTE_MCP.get(env.TOOLROUTE_MCP.idFromName(sessionId))

describe('MCP sessions', () => {
  it('gives every 2025 client a session, whether or not it can answer questions (its cancel needs one, #45)', async () => {
    const plain = await post(initialize({}))
    expect(plain.status).toBe(200)
    expect(plain.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/)
    await plain.body?.cancel()

    const asking = await post(initialize({ elicitation: {} }))
    expect(asking.status).toBe(200)
    expect(asking.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(asking.headers.get('content-type')).toContain('text/event-stream')
    await asking.body?.cancel()
  })

  it('pins every request of a session to the Durable Object named by its id', async () => {
    const { client, transport } = await connectMcp({ elicitation: () => ({ action: 'accept', content: { name: 'Grace' } }) })
    const sessionId = transport.sessionId!
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/)

    // The answer to the question travels in a POST of its own; it reaches the call that asked
    // only because it lands on the same object.
    const result = await client.callTool({ name: 'ask-name', arguments: {} })
    expect(result.structuredContent).toEqual({ text: 'Hello, Grace', action: 'accept' })
    const echo = await client.callTool({ name: 'mcp-echo', arguments: {} })
    expect(echo.structuredContent).toMatchObject({ sessionId })

    const saved = await runInDurableObject(sessionObject(sessionId), async (_instance, state) => state.storage.get<{ initialize: { method: string } }>('session'))
    expect(saved?.initialize.method).toBe('initialize')
    const ids = (await listDurableObjectIds(env.TOOLROUTE_MCP)).map((id) => id.toString())
    expect(ids).toContain(env.TOOLROUTE_MCP.idFromName(sessionId).toString())
  })

  it('rebuilds the session after its object lost its memory, under the same id', async () => {
    const { client, transport } = await connectMcp({ elicitation: () => ({ action: 'accept', content: { name: 'Linus' } }) })
    const sessionId = transport.sessionId!
    expect((await client.callTool({ name: 'weather-tool', arguments: { location: 'Oslo' } })).isError).toBeFalsy()

    await abortAllDurableObjects()

    // Same client, same session id: the object replays the saved initialize, so the client's
    // capabilities (elicitation) still hold.
    const result = await client.callTool({ name: 'ask-name', arguments: { greeting: 'Hej' } })
    expect(result.structuredContent).toEqual({ text: 'Hej, Linus', action: 'accept' })
    expect(transport.sessionId).toBe(sessionId)
  })

  it('answers an unknown or malformed session id with 404, so the client starts over', async () => {
    const unknown = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': crypto.randomUUID() })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } })
    const malformed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': '../../etc' })
    expect(malformed.status).toBe(404)
  })

  it('answers a session only to the principal that opened it', async () => {
    const { transport } = await connectMcp({ elicitation: () => ({ action: 'cancel' }), headers: { authorization: 'Bearer alice' } })
    const sessionId = transport.sessionId!
    const list = { jsonrpc: '2.0', id: 3, method: 'tools/list' }
    const mallory = await post(list, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', authorization: 'Bearer mallory' })
    expect(mallory.status).toBe(404)
    await mallory.body?.cancel()
    const alice = await post(list, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', authorization: 'Bearer alice' })
    expect(alice.status).toBe(200)
    expect(await alice.text()).toContain('weather-tool')
  })

  it('ends a session on DELETE: its storage is gone and its id answers 404', async () => {
    const { client, transport } = await connectMcp({ elicitation: () => ({ action: 'cancel' }) })
    const sessionId = transport.sessionId!
    await transport.terminateSession()
    const saved = await runInDurableObject(sessionObject(sessionId), async (_instance, state) => state.storage.get('session'))
    expect(saved).toBeUndefined()
    const stale = await post({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' })
    expect(stale.status).toBe(404)
    await stale.body?.cancel()
    // The client forgot the id with the session: it goes on statelessly.
    expect(transport.sessionId).toBeUndefined()
    expect((await client.listTools()).tools.length).toBeGreaterThan(0)
  })

  it('expires an idle session with the object alarm', async () => {
    const { transport } = await connectMcp({ elicitation: () => ({ action: 'cancel' }) })
    const sessionId = transport.sessionId!
    const alarm = await runInDurableObject(sessionObject(sessionId), async (_instance, state) => state.storage.getAlarm())
    expect(alarm).toBeGreaterThan(Date.now() + 23 * 60 * 60 * 1000)
    // Recently used: the alarm only moves on.
    expect(await runDurableObjectAlarm(sessionObject(sessionId))).toBe(true)
    expect(await runInDurableObject(sessionObject(sessionId), async (_instance, state) => state.storage.get('session'))).toBeDefined()
    // A fresh object has no record of activity (the alarm fires a day after the last one): it deletes the session.
    await abortAllDurableObjects()
    expect(await runDurableObjectAlarm(sessionObject(sessionId))).toBe(true)
    expect(await runInDurableObject(sessionObject(sessionId), async (_instance, state) => state.storage.get('session'))).toBeUndefined()
    const gone = await post({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' })
    expect(gone.status).toBe(404)
    await gone.body?.cancel()
  })

  it('offers no GET stream: every message belongs to a call', async () => {
    const response = await SELF.fetch(mcpUrl, { headers: { accept: 'text/event-stream' } })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST, DELETE')
    await response.body?.cancel()
  })

  it('refuses bodies that are not JSON-RPC over JSON', async () => {
    const text = await SELF.fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, body: 'hi' })
    expect(text.status).toBe(415)
    await text.body?.cancel()
    const broken = await SELF.fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{' })
    expect(broken.status).toBe(400)
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } })
  })
})
