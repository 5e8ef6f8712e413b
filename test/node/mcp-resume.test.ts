// A 2025-11-25 session's lost call stream, resumed with GET and Last-Event-ID (#28): the resume
// replays what the client missed and ends when the call has ended, so a client is never left on a
// stream that can only close when its session does; a resume the client dropped leaves no
// "active connection" behind to refuse the next one (409).
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'

const slowEcho = createTool({
  id: 'slow-echo',
  description: 'Echoes after ms milliseconds',
  inputSchema: z.object({ text: z.string(), ms: z.number().int().min(0).max(2000) }),
  execute: async ({ text, ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms))
    return { text }
  },
})
const app = createToolApp({ tools: [slowEcho] })

const send = (method: 'POST' | 'GET', body: unknown, headers: Record<string, string> = {}) =>
  app.fetch(
    new Request('http://node.test/mcp', {
      method,
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  )

async function openSession(): Promise<string> {
  const opened = await send('POST', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } })
  const session = opened.headers.get('mcp-session-id')!
  await opened.text()
  await (await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session })).text()
  return session
}

/** Starts a call, reads its priming event and drops the stream: the id a client would resume from. */
async function startAndDrop(session: string, id: number, ms: number): Promise<string> {
  const call = await send('POST', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow-echo', arguments: { text: `call ${id}`, ms } } }, { 'mcp-session-id': session })
  const reader = call.body!.getReader()
  let text = ''
  while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value)
  await reader.cancel()
  return /^id: (\S+)/.exec(text)![1]!
}

/** Reads a response to its end, or fails the test if it has not ended within `ms`. */
async function readToEnd(response: Response, ms = 3000): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the stream was still open after ${ms} ms`)), ms)))
  try {
    return await Promise.race([response.text(), late])
  } finally {
    clearTimeout(timer)
  }
}

describe('resuming a lost call stream (2025-11-25 sessions)', () => {
  it('a resume after the call ended replays its result and ends', async () => {
    const session = await openSession()
    const priming = await startAndDrop(session, 2, 0)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const resumed = await send('GET', undefined, { 'mcp-session-id': session, 'last-event-id': priming })
    expect(resumed.status).toBe(200)
    const text = await readToEnd(resumed)
    expect(text).toContain('"id":2')
    expect(text).toContain('"structuredContent":{"text":"call 2"}')
  })

  it('a resume while the call runs gets its result when it comes, then ends', async () => {
    const session = await openSession()
    const priming = await startAndDrop(session, 3, 300)
    const resumed = await send('GET', undefined, { 'mcp-session-id': session, 'last-event-id': priming })
    expect(resumed.status).toBe(200)
    expect(await readToEnd(resumed)).toContain('"structuredContent":{"text":"call 3"}')
  })

  it('a dropped resume leaves nothing behind: the next resume of the same stream is served, not refused with 409', async () => {
    const session = await openSession()
    const priming = await startAndDrop(session, 4, 0)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const first = await send('GET', undefined, { 'mcp-session-id': session, 'last-event-id': priming })
    expect(first.status).toBe(200)
    // Dropped before it was read: whatever the server holds for it must go with it.
    await first.body!.cancel()
    const second = await send('GET', undefined, { 'mcp-session-id': session, 'last-event-id': priming })
    expect(second.status).toBe(200)
    expect(await readToEnd(second)).toContain('"structuredContent":{"text":"call 4"}')
  })
})
