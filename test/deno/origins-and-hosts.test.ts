// SPEC §5 and §12 on Deno, over real HTTP: `serveTools` on a loopback address answers loopback
// Hosts only, on every route (DNS rebinding), and run actions refuse cross-site requests; JSON
// headers are depth-guarded and a flood of MCP sessions evicts only its sender's own.
import assert from 'node:assert/strict'
import { serveTools } from 'toolroute/deno'
import { createMemoryMcpSessions } from '../../src/mcp/create-memory-mcp-sessions.ts'
import { countedApproval, executions, exampleTools, withApp } from './harness.ts'

/** One HTTP/1.1 request over a socket of its own, with any `Host` (fetch sets its own). */
async function raw(port: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<[number, any]> {
  const connection = await Deno.connect({ hostname: '127.0.0.1', port })
  const lines = Object.entries({ connection: 'close', ...headers, ...(body ? { 'content-length': String(new TextEncoder().encode(body).byteLength) } : {}) })
  await connection.write(new TextEncoder().encode(`${method} ${path} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`))
  const text = await new Response(connection.readable).text()
  const status = Number(text.match(/^HTTP\/1\.1 (\d+)/)![1])
  const payload = text.slice(text.indexOf('\r\n\r\n') + 4)
  return [status, payload.startsWith('{') ? JSON.parse(payload) : payload]
}

const json = { 'content-type': 'application/json' }
const mcp = { ...json, accept: 'application/json, text/event-stream' }
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
const toolsCall = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'weather-tool', arguments: { location: 'Oslo' } } })

async function withServer(fn: (port: number) => Promise<void>, options: { allowedHosts?: string[] } = {}) {
  const server = await serveTools({ tools: [...exampleTools, countedApproval], port: 0, kvPath: ':memory:', ...options })
  try {
    await fn(server.url.port === '' ? 80 : Number(server.url.port))
  } finally {
    await server.shutdown()
  }
}

Deno.test('serveTools on 127.0.0.1 refuses a foreign Host with 403 on every route, MCP included', () =>
  withServer(async (port) => {
    const key = crypto.randomUUID()
    for (const host of ['evil.example.com', `evil.example.com:${port}`, 'localhost.evil.example']) {
      const evil = { host, origin: `http://${host}` }
      const requests: [string, string, Record<string, string>, string?][] = [
        ['POST', '/mcp', { ...mcp, ...evil }, initialize],
        ['POST', '/mcp', { ...mcp, ...evil, 'mcp-protocol-version': '2025-06-18' }, toolsCall],
        ['GET', '/tools', evil],
        ['GET', '/', evil],
        ['POST', '/tools/counted-approval', { ...json, ...evil }, JSON.stringify({ key })],
        ['GET', '/runs/run_x', evil],
        ['POST', '/runs/run_x/approve', evil],
        ['GET', '/openapi.json', evil],
      ]
      for (const [method, path, headers, body] of requests) {
        const [status, answer] = await raw(port, method, path, headers, body)
        assert.equal(status, 403, `${host}: ${method} ${path}`)
        assert.equal(answer.error.code, 'FORBIDDEN')
      }
    }
    assert.equal(executions.get(key), undefined)
    for (const host of ['localhost', `127.0.0.1:${port}`, `[::1]:${port}`]) {
      const [listed] = await raw(port, 'GET', '/tools', { host })
      const [initialized] = await raw(port, 'POST', '/mcp', { ...mcp, host, origin: `http://localhost:${port}` }, initialize)
      assert.deepEqual([listed, initialized], [200, 200], host)
    }
  }))

Deno.test('serveTools: allowedHosts adds names, with any port', () =>
  withServer(
    async (port) => {
      assert.equal((await raw(port, 'GET', '/tools', { host: `my-laptop.local:${port}` }))[0], 200)
      assert.equal((await raw(port, 'GET', '/tools', { host: 'other.local' }))[0], 403)
    },
    { allowedHosts: ['my-laptop.local'] },
  ))

Deno.test('serveTools: a run action from another site gets 403 (body-less) or 415 (a form), and the run still waits', () =>
  withServer(async (port) => {
    const host = { host: `127.0.0.1:${port}` }
    const key = crypto.randomUUID()
    const [, approval] = await raw(port, 'POST', '/tools/counted-approval', { ...json, ...host }, JSON.stringify({ key }))
    const runId = approval.runId as string
    const [bodyless, refused] = await raw(port, 'POST', `/runs/${runId}/approve`, { ...host, origin: 'http://evil.example', 'content-length': '0' })
    assert.deepEqual([bodyless, refused.error.code], [403, 'FORBIDDEN'])
    const [form, unsupported] = await raw(port, 'POST', `/runs/${runId}/cancel`, { ...host, 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' })
    assert.deepEqual([form, unsupported.error.code], [415, 'UNSUPPORTED_MEDIA_TYPE'])
    const [, run] = await raw(port, 'GET', `/runs/${runId}`, host)
    assert.equal(run.status, 'approval-required')
    // A page of this machine (another port) and a body-less curl both may act.
    const [approved, done] = await raw(port, 'POST', `/runs/${runId}/approve`, { ...host, origin: 'http://localhost:5173' })
    assert.deepEqual([approved, done.status, executions.get(key)], [200, 'completed', 1])
  }))

Deno.test('an x-request-context nested 5,000 deep answers 400 on a stateful tool (Deno KV), never 500', () =>
  withApp(async ({ request }) => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
    const response = await request('/tools/counted-approval', { json: { key: crypto.randomUUID() }, headers: { 'x-request-context': deep } })
    assert.equal(response.status, 400)
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'REQUEST_CONTEXT_VALIDATION_FAILED')
  }))

Deno.test("in-memory MCP sessions: one principal's flood of initialize evicts only its own", () => {
  const sessions = createMemoryMcpSessions({ maxSessions: 6, maxSessionsPerPrincipal: 3 })
  return withApp(
    async ({ request }) => {
      const open = async (who: string) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'flood', version: '1' } } })
        const response = await request('/mcp', { method: 'POST', headers: { ...mcp, authorization: `Bearer ${who}` }, body })
        await response.body?.cancel()
        return response.headers.get('mcp-session-id')!
      }
      const ping = async (who: string, sessionId: string) => {
        const response = await request('/mcp', {
          method: 'POST',
          headers: { ...mcp, authorization: `Bearer ${who}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
        })
        await response.body?.cancel()
        return response.status
      }
      const alice = await open('alice')
      const flood: string[] = []
      for (let index = 0; index < 20; index++) flood.push(await open('mallory'))
      assert.equal(await ping('alice', alice), 200)
      const statuses = []
      for (const sessionId of flood) statuses.push(await ping('mallory', sessionId))
      assert.deepEqual(statuses, [...Array(17).fill(404), 200, 200, 200])
    },
    { mcp: { sessions: () => sessions } },
  )
})
