// SPEC §17: every call has a trace id, the incoming W3C `traceparent`'s (HTTP header; MCP `_meta` at
// 2026-07-28 and 2025) else a new one; it is the `start` chunk's `messageMetadata.traceId`, the
// `x-trace-id` header, and a kept run's `traceId` (`GET /runs/:runId`).
import { SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { callTool } from './http-client.ts'
import { call, getRun } from './run-client.ts'
import { closeAll, connectMcp, mcpUrl } from './mcp-client.ts'
import { jsonRpcAnswer, modernToolCall } from '../fixtures/modern-mcp-call.ts'

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
const traceparent = `00-${traceId}-00f067aa0ba902b7-01`

async function startChunkOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text()
  const first = text.split('\n').find((line) => line.startsWith('data: {'))!
  const start = JSON.parse(first.slice(6))
  expect(start.type).toBe('start')
  return start.messageMetadata
}

afterEach(closeAll)

describe('trace ids (SPEC §17)', () => {
  it('a JSON call continues the traceparent it was sent: x-trace-id is its trace id', async () => {
    const response = await callTool('weather-tool', { location: 'Lisbon' }, { headers: { traceparent } })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-trace-id')).toBe(traceId)
    // The body is the wire contract's, unchanged.
    expect(await response.json()).not.toHaveProperty('traceId')
  })

  it("an SSE call's start chunk and x-trace-id name the incoming trace", async () => {
    const response = await callTool('weather-tool', { location: 'Lisbon' }, { sse: true, headers: { traceparent } })
    expect(response.headers.get('x-trace-id')).toBe(traceId)
    expect(await startChunkOf(response)).toMatchObject({ traceId, runId: response.headers.get('x-run-id') })
  })

  it('without a traceparent, or with a malformed one, a call gets a new trace id of its own', async () => {
    const bad = [undefined, 'garbage', `00-${traceId.toUpperCase()}-00f067aa0ba902b7-01`, `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, `ff-${traceId}-00f067aa0ba902b7-01`, `00-${traceId}-${'0'.repeat(16)}-01`, `00-${traceId}-00f067aa0ba902b7-01-extra`]
    const seen = new Set<string>()
    for (const value of bad) {
      const response = await callTool('weather-tool', { location: 'Lisbon' }, { sse: true, headers: value === undefined ? {} : { traceparent: value } })
      const header = response.headers.get('x-trace-id')!
      expect(header).toMatch(/^[0-9a-f]{32}$/)
      expect(header).not.toBe(traceId)
      expect((await startChunkOf(response)).traceId).toBe(header)
      seen.add(header)
    }
    expect(seen.size).toBe(bad.length)
  })

  it("a kept run's traceId is its call's (GET /runs/:runId), and a failed call's answer names it too", async () => {
    const response = await call('delete-file', { path: '/tmp/a.txt' }, { auth: 'alice', headers: { traceparent } })
    expect(response.status).toBe(202)
    expect(response.headers.get('x-trace-id')).toBe(traceId)
    const { runId } = (await response.json()) as { runId: string }
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ runId, traceId })
    const invalid = await callTool('weather-tool', { location: '' }, { headers: { traceparent } })
    expect(invalid.status).toBe(400)
  })

  it("MCP 2025: _meta.traceparent is the call's trace", async () => {
    const { client } = await connectMcp()
    const result = await client.callTool({ name: 'weather-tool', arguments: { location: 'Lisbon' }, _meta: { traceparent } })
    expect((result._meta as Record<string, { traceId?: string }>)['toolroute/run']!.traceId).toBe(traceId)
    const fresh = await client.callTool({ name: 'weather-tool', arguments: { location: 'Lisbon' }, _meta: { traceparent: 'nope' } })
    expect((fresh._meta as Record<string, { traceId?: string }>)['toolroute/run']!.traceId).toMatch(/^(?!4bf92f35)[0-9a-f]{32}$/)
  })

  it("MCP 2026-07-28: _meta.traceparent is the call's trace", async () => {
    const init = modernToolCall('weather-tool', { location: 'Lisbon' })
    const body = JSON.parse(init.body as string)
    body.params._meta.traceparent = traceparent
    const answer = await jsonRpcAnswer(await SELF.fetch(mcpUrl, { ...init, body: JSON.stringify(body) }))
    expect(answer.result._meta['toolroute/run'].traceId).toBe(traceId)
  })
})
