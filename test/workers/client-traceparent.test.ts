// SPEC §17: toolroute/client (and toolroute/ai, which calls through it) sends the active trace's
// `traceparent`, given as a value or a function asked per request; the server continues that trace.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createToolClient } from '../../src/client/create-tool-client.ts'
import { toAiSdkTools } from '../../src/ai/to-ai-sdk-tools.ts'

const traceIdOf = (n: number) => n.toString(16).padStart(32, 'a')

function recording(traceparent: string | (() => string | undefined)) {
  const sent: { traceparent: string | null; traceId: string | null }[] = []
  const client = createToolClient({
    baseUrl: 'http://tools.test',
    traceparent,
    fetch: async (request) => {
      const response = await SELF.fetch(request)
      sent.push({ traceparent: request.headers.get('traceparent'), traceId: response.headers.get('x-trace-id') })
      return response
    },
  })
  return { client, sent }
}

describe('the client sends traceparent', () => {
  it('a function is asked per request, and the server answers with its trace id', async () => {
    let n = 0
    const { client, sent } = recording(() => `00-${traceIdOf(++n)}-00f067aa0ba902b7-01`)
    await client.call('weather-tool', { location: 'Lisbon' })
    await client.call('weather-tool', { location: 'Porto' })
    expect(sent).toEqual([1, 2].map((i) => ({ traceparent: `00-${traceIdOf(i)}-00f067aa0ba902b7-01`, traceId: traceIdOf(i) })))
  })

  it('an explicit traceparent header wins over the option; a function with no trace sends none', async () => {
    const { client, sent } = recording(() => undefined)
    await client.call('weather-tool', { location: 'Lisbon' })
    const explicit = `00-${traceIdOf(7)}-00f067aa0ba902b7-01`
    await client.call('weather-tool', { location: 'Lisbon' }, { headers: { traceparent: explicit } })
    expect(sent[0]!.traceparent).toBeNull()
    expect(sent[0]!.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(sent[1]).toEqual({ traceparent: explicit, traceId: traceIdOf(7) })
  })

  it('toolroute/ai calls carry it too', async () => {
    const traceparent = `00-${traceIdOf(9)}-00f067aa0ba902b7-01`
    const { client, sent } = recording(traceparent)
    const tools = await toAiSdkTools(client)
    const result = (tools['weather-tool'] ?? tools['weather_tool'])!.execute!({ location: 'Lisbon' }, { toolCallId: 'call_1', messages: [] } as never) as unknown
    // An AI SDK tool may answer with an async iterable (preliminary outputs): read it to the end.
    if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') for await (const _ of result as AsyncIterable<unknown>);
    else await result
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.every((entry) => entry.traceparent === traceparent)).toBe(true)
    expect(sent.map((entry) => entry.traceId)).toContain(traceIdOf(9))
  })
})
