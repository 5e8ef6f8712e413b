// SPEC §17: x-trace-id is on every call's answer, including the two that write their own headers:
// Mastra's execute route and a call with an Idempotency-Key (its first answer and every replay).
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { callTool, origin } from './http-client.ts'

const traceId = '0af7651916cd43dd8448eb211c80319c'
const traceparent = (id: string) => `00-${id}-b7ad6b7169203331-01`

describe('x-trace-id on every call answer (SPEC §17)', () => {
  it("Mastra's execute answers with the call's trace id", async () => {
    const response = await SELF.fetch(`${origin}/api/tools/weather-tool/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: traceparent(traceId) },
      body: JSON.stringify({ data: { location: 'Lisbon' } }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-trace-id')).toBe(traceId)
    expect(response.headers.get('x-run-id')).toBeTruthy()
    // Without a traceparent, a new one.
    const fresh = await SELF.fetch(`${origin}/api/tools/weather-tool/execute`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { location: 'Lisbon' } }) })
    expect(fresh.headers.get('x-trace-id')).toMatch(/^(?!0af76519)[0-9a-f]{32}$/)
  })

  it("a keyed call answers with its trace id, and a replay with the first call's, whatever the repeat's traceparent", async () => {
    const key = `trace-${crypto.randomUUID()}`
    const first = await callTool('weather-tool', { location: 'Lisbon' }, { headers: { 'idempotency-key': key, traceparent: traceparent(traceId) } })
    expect(first.status).toBe(200)
    expect(first.headers.get('x-trace-id')).toBe(traceId)
    const other = 'a'.repeat(32)
    const replay = await callTool('weather-tool', { location: 'Lisbon' }, { headers: { 'idempotency-key': key, traceparent: traceparent(other) } })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.headers.get('x-run-id')).toBe(first.headers.get('x-run-id'))
    expect(replay.headers.get('x-trace-id')).toBe(traceId)
    const sse = await callTool('weather-tool', { location: 'Lisbon' }, { sse: true, headers: { 'idempotency-key': key, traceparent: traceparent(other) } })
    expect(sse.headers.get('x-trace-id')).toBe(traceId)
    await sse.body?.cancel()
  })
})
