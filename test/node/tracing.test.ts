import { trace } from '@opentelemetry/api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'
import { serveApp } from '../e2e/serve-app.ts'
import { attributesOf, startCollector } from '../shared/otlp-collector.ts'

const SECRET_INPUT = 'INPUT-CANARY-7f3a'
const SECRET_OUTPUT = 'OUTPUT-CANARY-91b2'
const SECRET_CONTEXT = 'CONTEXT-CANARY-55d0'
const SECRET_TOKEN = 'TOKEN-CANARY-0c4e'

const lookup = createTool({
  id: 'lookup',
  description: 'Looks a thing up, inside an observe.span and a span of its own',
  inputSchema: z.object({ query: z.string(), fail: z.boolean().optional() }),
  requestContextSchema: z.object({ tenant: z.string() }),
  execute: async ({ query, fail }, { observe }) =>
    observe.span('search', async () => {
      await trace.getTracer('tool-author').startActiveSpan('own-work', async (span) => span.end())
      if (fail) throw new Error(`failed on ${query}`)
      return { found: `${SECRET_OUTPUT}` }
    }, { query }),
})

let collector: Awaited<ReturnType<typeof startCollector>>
let app: Awaited<ReturnType<typeof serveApp>>

beforeAll(async () => {
  collector = await startCollector()
  // The standard variables, as an operator sets them.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url
  process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-collector-key=key%20one'
  // Batches 50 ms apart, not 5 s: the spans of a call reach the collector soon after its answer.
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50'
  const tools = createToolApp({ tools: [lookup], tracing: { serviceName: 'lookup-service' } })
  app = await serveApp(tools.fetch)
})

afterAll(async () => {
  await app?.close()
  await collector?.close()
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
  delete process.env.OTEL_EXPORTER_OTLP_HEADERS
  delete process.env.OTEL_BSP_SCHEDULE_DELAY
})

const call = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/tools/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-context': JSON.stringify({ tenant: SECRET_CONTEXT }), authorization: `Bearer ${SECRET_TOKEN}`, ...headers },
    body: JSON.stringify(body),
  })

describe('tracing: a span per call, exported over OTLP/HTTP (SPEC §17)', () => {
  it('parents the call span on the incoming traceparent; execute, observe.span and an @opentelemetry/api span nest under it', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const parent = '00f067aa0ba902b7'
    const response = await call({ query: SECRET_INPUT }, { traceparent: `00-${traceId}-${parent}-01`, 'x-tool-call-id': 'call-abc' })
    expect(response.status).toBe(200)
    expect(JSON.stringify(await response.json())).toContain(SECRET_OUTPUT)
    expect(response.headers.get('x-trace-id')).toBe(traceId)
    const spans = await collector.traceOf(traceId)
    const byName = (name: string) => spans.find((span) => span.name === name)!
    const root = byName('execute_tool lookup')
    expect(root.parentSpanId).toBe(parent)
    expect(attributesOf(root)).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'call-abc',
      'toolroute.run.id': response.headers.get('x-run-id'),
      'http.response.status_code': 200,
    })
    expect(byName('execute').parentSpanId).toBe(root.spanId)
    expect(byName('search').parentSpanId).toBe(byName('execute').spanId)
    expect(byName('own-work').parentSpanId).toBe(byName('search').spanId)
    expect(collector.services).toContain('lookup-service')
    expect(collector.keys).toContain('key one')
    expect(collector.paths).toContain('/v1/traces application/json')
    // Ids, sizes and statuses only: no input, output, request-context value or token anywhere in a span.
    const exported = JSON.stringify(spans)
    for (const secret of [SECRET_INPUT, SECRET_OUTPUT, SECRET_CONTEXT, SECRET_TOKEN]) expect(exported).not.toContain(secret)
  })

  it('starts a new trace without a traceparent, whose id is the x-trace-id and the start chunk traceId (SSE)', async () => {
    const response = await call({ query: 'x' }, { accept: 'text/event-stream' })
    const text = await response.text()
    const traceId = response.headers.get('x-trace-id')!
    expect(traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(text).toContain(`"traceId":"${traceId}"`)
    const root = (await collector.traceOf(traceId)).find((span) => span.name === 'execute_tool lookup')!
    expect(root.parentSpanId || undefined).toBeUndefined()
  })

  it('marks a failed execute and its call as errors, by type only', async () => {
    const response = await call({ query: SECRET_INPUT, fail: true })
    expect(response.status).toBeGreaterThanOrEqual(400)
    const spans = await collector.traceOf(response.headers.get('x-trace-id')!)
    const execute = spans.find((span) => span.name === 'execute')!
    expect(execute.status?.code).toBe(2)
    expect(attributesOf(execute)['error.type']).toBe('Error')
    const root = spans.find((span) => span.name === 'execute_tool lookup')!
    expect(root.status?.code).toBe(2)
    expect(JSON.stringify(spans)).not.toContain(SECRET_INPUT)
  })
})
