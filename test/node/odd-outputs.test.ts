// Issue 45 in Node on the memory stores (createToolApp of toolroute/server): a key settles whatever
// the tool returned, every stream ends, a void result is `output: null`, a thrown non-Error carries
// only its message, a bad x-tool-call-id is refused. test/workers/odd-outputs.test.ts holds workerd.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'
import { readSse } from '../fixtures/read-sse.ts'

const notJson = 'Tool output is not JSON (a BigInt, a cycle or a toJSON that throws): it cannot be sent or kept'
let executions = 0
const cycle = () => {
  const value: Record<string, unknown> = {}
  value.self = value
  return value
}
const outputs = { bigint: () => ({ n: 1n }), cycle, tojson: () => ({ toJSON: () => { throw new Error('no') } }), void: () => undefined }
const odd = createTool({
  id: 'odd',
  description: 'x',
  inputSchema: z.object({ kind: z.enum(['bigint', 'cycle', 'tojson', 'void']), nonce: z.string().optional() }),
  execute: async ({ kind }) => ((executions += 1), outputs[kind]() as never),
})
const throwing = createTool({
  id: 'throwing',
  description: 'x',
  inputSchema: z.object({ message: z.boolean() }),
  onInputAvailable: () => {
    throw { n: 1n, toString: () => { throw new Error('unprintable') } }
  },
  execute: async ({ message }) => {
    throw message ? { message: 'declined', detail: 'sk_hidden' } : { detail: 'sk_hidden' }
  },
})
const app = createToolApp({ tools: [odd, throwing] })
const post = (id: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request(`/tools/${id}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

describe('odd outputs on the memory stores', () => {
  for (const kind of ['bigint', 'cycle', 'tojson'] as const) {
    it(`${kind}: a keyed call settles on its failure and never executes again; SSE ends; JSON fails naming why`, async () => {
      const before = executions
      const key = `key-${kind}`
      const first = await post('odd', { kind }, { 'idempotency-key': key })
      const text = await first.text()
      expect(first.status).toBe(500)
      expect(JSON.parse(text)).toEqual({ error: { code: 'EXECUTION_FAILED', message: notJson } })
      const again = await post('odd', { kind }, { 'idempotency-key': key })
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(await again.text()).toBe(text)
      expect(executions).toBe(before + 1)
      const sse = await readSse(await post('odd', { kind, nonce: 'sse' }, { accept: 'text/event-stream' }))
      expect(sse.done).toBe(true)
      expect(sse.events.slice(-2)).toEqual([{ type: 'tool-output-error', toolCallId: expect.any(String), errorText: notJson }, { type: 'finish', finishReason: 'stop' }])
      expect(await (await post('odd', { kind, nonce: 'json' })).json()).toEqual({ error: { code: 'EXECUTION_FAILED', message: notJson } })
    })
  }

  it('void: output null in JSON and in the SSE chunk', async () => {
    expect(await (await post('odd', { kind: 'void' })).json()).toMatchObject({ status: 'completed', output: null, modelOutput: { type: 'json', value: null } })
    const { events } = await readSse(await post('odd', { kind: 'void' }, { accept: 'text/event-stream' }))
    expect(events.find((event) => event.type === 'tool-output-available')).toEqual({ type: 'tool-output-available', toolCallId: expect.any(String), output: null })
  })

  it('a thrown non-Error is its message or the fixed text; a hook that throws the unprintable fails nothing', async () => {
    const withMessage = await post('throwing', { message: true })
    expect(await withMessage.json()).toEqual({ error: { code: 'EXECUTION_FAILED', message: 'declined' } })
    const without = await (await post('throwing', { message: false })).text()
    expect(JSON.parse(without)).toEqual({ error: { code: 'EXECUTION_FAILED', message: 'Tool threw a non-Error value' } })
    expect(without).not.toContain('sk_hidden')
  })

  it('an x-tool-call-id over 128 characters or outside visible ASCII answers 400 INVALID_HEADER, not echoed', async () => {
    for (const id of ['a'.repeat(129), 'with space']) {
      const response = await post('odd', { kind: 'void' }, { 'x-tool-call-id': id })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_HEADER')
      expect(response.headers.get('x-tool-call-id')).toBeNull()
    }
  })
})

describe('odd outputs over MCP (2026-07-28, stateless)', () => {
  const call = async (kind: string) => {
    const response = await app.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'odd' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'odd', arguments: { kind }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    })
    const text = await response.text()
    const data = text.startsWith('{') ? text : text.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6).at(-1)!.slice(6)
    return JSON.parse(data) as { result?: { isError?: boolean; content: { type: string; text: string }[] }; error?: unknown }
  }

  it('a not-JSON output is an isError result naming why; void is null text', async () => {
    for (const kind of ["bigint", "cycle", "tojson"]) expect((await call(kind)).result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('not JSON') }] })
    expect((await call('void')).result).toMatchObject({ content: [{ type: 'text', text: 'null' }] })
  })
})
