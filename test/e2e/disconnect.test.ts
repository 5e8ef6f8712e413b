// Disconnects and input hooks over real HTTP, on the test Worker (tools/ plus the recorder
// fixtures of test/fixtures/test-tools.ts) bundled as for deploy and served by workerd with a
// direct socket. `wrangler dev` is not used here: its proxy keeps reading a response after the
// client left, so the Worker never learns of the disconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sseMessages } from '../fixtures/read-sse.ts'
import { startDirectWorkerd, type DirectWorkerd } from './direct-workerd.ts'
import { liveBody, streamedPost } from './live-body.ts'

let server: DirectWorkerd
beforeAll(async () => {
  server = await startDirectWorkerd('test/workers/wrangler.toml')
})
afterAll(async () => {
  await server?.stop()
})

const post = (path: string, body: unknown, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${server.url}${path}`, { ...init, method: 'POST', headers: { 'content-type': 'application/json', ...init.headers }, body: JSON.stringify(body) })

async function probe(key: string): Promise<string[]> {
  const response = await post('/tools/read-probe', { key })
  return ((await response.json()) as { output: { entries: string[] } }).output.entries
}

/** Polls until `check` holds or `withinMs` passed (an upper bound only, never a timing assert). */
async function eventually(key: string, check: (entries: string[]) => boolean, withinMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + withinMs
  let entries = await probe(key)
  while (!check(entries) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    entries = await probe(key)
  }
  return entries
}

describe('abort over HTTP: the caller disconnecting aborts context.abortSignal', () => {
  // Local workerd learns of a closed HTTP/1.1 connection only when it writes to it (on
  // Cloudflare the edge tells the Worker at once). An SSE stream writes `: keep-alive` every
  // 15 s, so a silent tool learns of its caller leaving within 15 s. A JSON caller that aborts
  // is covered inside workerd (test/workers/abort.test.ts), where the runtime sees it directly.
  it('an SSE caller that cancels the stream aborts the silent tool by the next keep-alive', async () => {
    const key = `e2e-sse-${crypto.randomUUID()}`
    const response = await post('/tools/abort-recorder', { key, ms: 50_000 }, { headers: { accept: 'text/event-stream' } })
    const reader = sseMessages(response.body!).getReader()
    for (let next = await reader.read(); !next.done && !next.value.data.includes('tool-input-available'); next = await reader.read());
    expect(await eventually(key, (entries) => entries.includes('started'))).toEqual(['started'])
    await reader.cancel()
    expect(await eventually(key, (entries) => entries.length > 1, 25_000)).toEqual(['started', 'aborted: The caller disconnected'])
  })

  // The approved step runs in the run's Durable Object and reaches the caller over an RPC stream;
  // the caller leaving must travel back through it (vitest-pool-workers cannot cut that stream).
  it('an SSE caller that leaves an approve stream aborts the tool in the run\'s Durable Object', async () => {
    const created = await post('/tools/gated-approval', { key: `e2e-approve-${crypto.randomUUID()}` })
    const { runId } = (await created.json()) as { runId: string; status: string }
    expect(created.status).toBe(202)
    const approved = await fetch(`${server.url}/runs/${runId}/approve`, { method: 'POST', headers: { accept: 'text/event-stream' } })
    const reader = sseMessages(approved.body!).getReader()
    // The tool logs, then waits at a gate nobody opens: silent, until it is aborted.
    for (let next = await reader.read(); !next.done && !next.value.data.includes('data-tool-log'); next = await reader.read());
    const runOf = async () => (await (await fetch(`${server.url}/runs/${runId}`)).json()) as { status: string; error?: { code: string; message: string } }
    expect(await runOf()).toMatchObject({ status: 'running' })
    await reader.cancel()
    const deadline = Date.now() + 25_000
    let run = await runOf()
    while (run.status === 'running' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      run = await runOf()
    }
    expect(run).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'The caller disconnected' } })
  })

  it('a caller that stays gets its output and no abort', async () => {
    const key = `e2e-stay-${crypto.randomUUID()}`
    const response = await post('/tools/abort-recorder', { key, ms: 50 })
    expect(await response.json()).toMatchObject({ status: 'completed', output: { waited: 50 } })
    expect(await probe(key)).toEqual(['started', 'finished'])
  })
})

describe('onInputDelta over HTTP', () => {
  it('is called once per chunk of a chunked body, as the chunk arrives', async () => {
    const toolCallId = `e2e-hooks-${crypto.randomUUID()}`
    const body = liveBody()
    const chunks = ['{"text"', ':"stre', 'amed"}']
    body.send(chunks[0]!)
    const response = await fetch(`${server.url}/tools/input-recorder`, streamedPost(body.stream, { accept: 'text/event-stream', 'x-tool-call-id': toolCallId }))
    const reader = sseMessages(response.body!).getReader()
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0) body.send(chunk)
      for (let next = await reader.read(); !next.done && !next.value.data.includes('tool-input-delta'); next = await reader.read());
      // The hook ran for this chunk while the rest of the body has not been sent yet.
      expect(await probe(toolCallId)).toEqual(['start', ...chunks.slice(0, index + 1).map((text) => `delta:${text}`)])
    }
    body.end()
    let output: unknown
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (next.value.data.includes('tool-output-available')) output = JSON.parse(next.value.data).output
    }
    expect(output).toEqual({ text: 'streamed', hooks: ['start', ...chunks.map((text) => `delta:${text}`), 'available'] })
  })
})

describe('a chunked body past maxInputBytes over real HTTP', () => {
  it('refuses a chunked body past 1 MiB with PAYLOAD_TOO_LARGE', async () => {
    const body = liveBody()
    const pending = fetch(`${server.url}/tools/weather-tool`, streamedPost(body.stream))
    body.send('{"location":"')
    for (let index = 0; index < 9; index++) body.send('x'.repeat(128 * 1024))
    body.send('"}')
    body.end()
    const response = await pending
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } })
  })
})

describe('MCP 2026-07-28: the SDK v2 client aborting its call, over a real socket', () => {
  // Under 2026-07-28 there is no notifications/cancelled: the client aborts the call's HTTP request,
  // and the Worker learns it as a disconnect (on local workerd, only when it next writes to the
  // response, as for the SSE callers above). A call still running after a short grace is answered
  // as an SSE stream that keeps alive (src/mcp/answer-late-as-sse.ts): its next write finds the
  // client gone.
  // A client that can answer forms has its call run in a per-call Durable Object (where its retry
  // lands): the Worker relays that object's stream, and the client leaving must travel back through it.
  it.each([
    { who: 'a client without elicitation (the call runs in the Worker)', capabilities: {} },
    { who: 'a client that answers forms (the call runs in its per-call Durable Object)', capabilities: { elicitation: { form: {} } } },
  ])('aborts the call of $who: the tool sees its abortSignal abort, and never finishes', async ({ capabilities }) => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client')
    const client = new Client({ name: 'e2e-modern-cancel', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities })
    if ('elicitation' in capabilities) client.setRequestHandler('elicitation/create', () => ({ action: 'cancel' }))
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: 'Bearer e2e-modern-canceller' } } }))
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    const key = `e2e-modern-cancel-${crypto.randomUUID()}`
    const abort = new AbortController()
    const call = client.callTool({ name: 'abort-recorder', arguments: { key, ms: 50_000 } }, { signal: abort.signal })
    expect(await eventually(key, (entries) => entries.includes('started'))).toEqual(['started'])
    abort.abort(new Error('stopped by the user'))
    await expect(call).rejects.toThrow()
    const entries = await eventually(key, (seen) => seen.length > 1, 25_000)
    expect(entries[0]).toBe('started')
    expect(entries[1]).toMatch(/^aborted/)
    expect(entries).not.toContain('finished')
    await client.close()
  }, 40_000)
})

describe('MCP notifications/cancelled for a 2025 call, over a real socket', () => {
  // Every 2025 initialize opens a session (issue 45: a client without Authorization or elicitation
  // can cancel too); the cancel arrives in a request of its own and reaches the call in its session.
  it('aborts the call running in its per-call object', async () => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client')
    const client = new Client({ name: 'e2e-cancel', version: '1.0.0' })
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: 'Bearer e2e-canceller' } } })
    await client.connect(transport)
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const key = `e2e-mcp-cancel-${crypto.randomUUID()}`
    const abort = new AbortController()
    const call = client.callTool({ name: 'abort-recorder', arguments: { key, ms: 50_000 } }, { signal: abort.signal })
    expect(await eventually(key, (entries) => entries.includes('started'))).toEqual(['started'])
    abort.abort(new Error('stopped by the user'))
    await expect(call).rejects.toThrow()
    const entries = await eventually(key, (seen) => seen.length > 1)
    expect(entries[0]).toBe('started')
    expect(entries[1]).toMatch(/^aborted/)
    await client.close()
  })
})
