// SPEC §17 beyond the HTTP call: an MCP tools/call (2025 and 2026-07-28, the official SDK client) is the same
// `execute_tool` span under its `_meta.traceparent`, with validation, `execute`, `observe.span` and a tool's own
// span inside; a run's later steps (approve, resume, a background attempt) are spans of their own, in the run's
// trace and linked to its first span. A real OTLP/HTTP endpoint receives them; no attribute carries a value.
import { trace } from '@opentelemetry/api'
import { Client, specTypeSchemas, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'
import { serveApp } from '../e2e/serve-app.ts'
import { attributesOf, startCollector, type OtlpSpan } from '../shared/otlp-collector.ts'
import { jsonRpcAnswer, modernToolCall } from '../fixtures/modern-mcp-call.ts'

const SECRET_INPUT = 'INPUT-CANARY-3d1e'
const SECRET_OUTPUT = 'OUTPUT-CANARY-8a0c'
const SECRET_CONTEXT = 'CONTEXT-CANARY-c7b9'
const SECRET_TOKEN = 'TOKEN-CANARY-51fa'
const SECRET_RESUME = 'RESUME-CANARY-e24d'

const lookup = createTool({
  id: 'lookup',
  description: 'Looks a thing up, inside an observe.span and a span of its own',
  inputSchema: z.object({ query: z.string().min(3) }),
  requestContextSchema: z.object({ tenant: z.string() }),
  execute: async ({ query }, { observe }) =>
    observe.span('search', async () => {
      await trace.getTracer('tool-author').startActiveSpan('own-work', async (span) => span.end())
      return { found: `${SECRET_OUTPUT}:${query.length}` }
    }),
})
const guarded = createTool({
  id: 'guarded',
  description: 'Waits for approval, then works',
  inputSchema: z.object({ path: z.string() }),
  requireApproval: true,
  execute: async ({ path }, { observe }) => observe.span('work', async () => ({ done: `${SECRET_OUTPUT}:${path.length}` })),
})
const paused = createTool({
  id: 'paused',
  description: 'Suspends, then answers with what it was resumed with',
  inputSchema: z.object({ note: z.string() }),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ answer: z.string() }),
  execute: async (_input, { resumeData, suspend }) => (resumeData ? { length: resumeData.answer.length } : suspend({ question: 'Which?' })),
})
const later = createTool({
  id: 'later',
  description: 'Runs in the background',
  inputSchema: z.object({ note: z.string() }),
  background: { enabled: true, timeoutMs: 10_000 },
  execute: async ({ note }) => ({ length: note.length }),
})
const laterGuarded = createTool({
  id: 'laterGuarded',
  description: 'Runs in the background once approved',
  inputSchema: z.object({ path: z.string() }),
  requireApproval: true,
  background: { enabled: true, timeoutMs: 10_000 },
  execute: async ({ path }, { observe }) => observe.span('work', async () => ({ done: `${SECRET_OUTPUT}:${path.length}` })),
})

let collector: Awaited<ReturnType<typeof startCollector>>
let app: Awaited<ReturnType<typeof serveApp>>

beforeAll(async () => {
  collector = await startCollector()
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50'
  app = await serveApp(createToolApp({ tools: [lookup, guarded, paused, later, laterGuarded], tracing: { serviceName: 'steps-service' } }).fetch)
})

afterAll(async () => {
  await app?.close()
  await collector?.close()
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
  delete process.env.OTEL_BSP_SCHEDULE_DELAY
})

const callerHeaders = { 'x-request-context': JSON.stringify({ tenant: SECRET_CONTEXT }), authorization: `Bearer ${SECRET_TOKEN}` }
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...callerHeaders, ...headers }, body: JSON.stringify(body) })
const named = (spans: OtlpSpan[], name: string) => spans.find((span) => span.name === name)!
const stepSpan = (toolId: string, step: string, traceId: string) =>
  collector.spanWhere((span) => span.name === `execute_tool ${toolId}` && span.traceId === traceId && attributesOf(span)['toolroute.run.step'] === step)

/** An official SDK client over real HTTP, at the 2025-11-25 handshake or (`modern`) 2026-07-28; the versions it sent. */
async function connect(modern: boolean) {
  const versions: (string | null)[] = []
  const client = new Client({ name: 'tracing-test', version: '1.0.0' }, modern ? { versionNegotiation: { mode: 'auto' } } : {})
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: callerHeaders },
      fetch: async (input, init) => (versions.push(new Headers(init?.headers).get('mcp-protocol-version')), fetch(input, init)),
    }),
  )
  return { client, versions }
}

describe('MCP tools/call spans (SPEC §17)', () => {
  for (const [era, modern] of [['2025-11-25', false], ['2026-07-28', true]] as const) {
    it(`${era}: the call's span is the child of _meta.traceparent, with validate, execute, observe.span and an @opentelemetry/api span inside`, async () => {
      const { client, versions } = await connect(modern)
      const traceId = modern ? '5c0fe2ab1b7e4d3f9a8b7c6d5e4f3a2b' : '6d1ff3bc2c8f5e4fab9c8d7e6f5a4b3c'
      const parent = modern ? '1a2b3c4d5e6f7081' : '2b3c4d5e6f708192'
      const result = await client.callTool({ name: 'lookup', arguments: { query: SECRET_INPUT }, _meta: { traceparent: `00-${traceId}-${parent}-01` } })
      await client.close()
      expect(versions.at(-1)).toBe(era)
      expect(result.isError).toBeFalsy()
      const run = (result._meta as Record<string, { runId: string; toolCallId: string; traceId: string }>)['toolroute/run']!
      expect(run.traceId).toBe(traceId)
      const spans = await collector.traceOf(traceId)
      const root = named(spans, 'execute_tool lookup')
      expect(root.parentSpanId).toBe(parent)
      expect(attributesOf(root)).toEqual({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': run.toolCallId, 'toolroute.run.id': run.runId })
      expect(named(spans, 'validate').parentSpanId).toBe(root.spanId)
      expect(named(spans, 'execute').parentSpanId).toBe(root.spanId)
      expect(named(spans, 'search').parentSpanId).toBe(named(spans, 'execute').spanId)
      expect(named(spans, 'own-work').parentSpanId).toBe(named(spans, 'search').spanId)
      // The run's span id is kept, never sent.
      expect(JSON.stringify(result)).not.toContain(root.spanId)
    })
  }

  it('2025-11-25: a task-augmented call (tasks extension) is a call span of its own under _meta.traceparent; its attempt links to it', async () => {
    const { client, versions } = await connect(false)
    const traceId = '8f3a15de4ea16a71cdbe0f9a8b7c6d5e'
    const params = { name: 'later', arguments: { note: SECRET_INPUT }, task: { ttl: 60_000 }, _meta: { traceparent: `00-${traceId}-4d5e6f7081920314-01` } }
    const { task } = await client.request({ method: 'tools/call', params }, specTypeSchemas.CreateTaskResult)
    await client.close()
    expect(versions.at(-1)).toBe('2025-11-25')
    const first = await collector.spanWhere((span) => span.traceId === traceId && span.name === 'execute_tool later' && attributesOf(span)['toolroute.run.step'] === undefined)
    expect(first.parentSpanId).toBe('4d5e6f7081920314')
    expect(attributesOf(first)).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'later', 'toolroute.run.id': task.taskId })
    const attempt = await stepSpan('later', 'attempt', traceId)
    expect(attempt.links?.[0]).toMatchObject({ traceId, spanId: first.spanId })
  })

  it('a call whose input fails its schema is a failed validate span and a tool_error call span, by code only', async () => {
    const { client } = await connect(true)
    const result = await client.callTool({ name: 'lookup', arguments: { query: 'ab' } })
    await client.close()
    expect(result.isError).toBe(true)
    const { traceId } = (result._meta as Record<string, { traceId: string }>)['toolroute/run']!
    const spans = await collector.traceOf(traceId)
    const validate = named(spans, 'validate')
    expect(validate.status?.code).toBe(2)
    expect(attributesOf(validate)).toEqual({ 'error.type': 'INPUT_VALIDATION_FAILED' })
    expect(attributesOf(named(spans, 'execute_tool lookup'))['error.type']).toBe('tool_error')
    expect(spans.some((span) => span.name === 'execute')).toBe(false)
  })
})

describe("a run's later steps are spans linked to its first (SPEC §17)", () => {
  it('HTTP: a call that waits, then its approval: the approve span links to the call span, in its trace, execute inside', async () => {
    const traceId = '7e2a04cd3d905f60bcad9e8f7a6b5c4d'
    const called = await post('/tools/guarded', { path: SECRET_INPUT }, { traceparent: `00-${traceId}-3c4d5e6f70819203-01` })
    expect(called.status).toBe(202)
    const answer = await called.text()
    const { runId } = JSON.parse(answer) as { runId: string }
    const first = named(await collector.traceOf(traceId), 'execute_tool guarded')
    expect(first.parentSpanId).toBe('3c4d5e6f70819203')

    const approved = await post(`/runs/${runId}/approve`, {})
    expect(approved.status).toBe(200)
    expect(JSON.stringify(await approved.json())).toContain(SECRET_OUTPUT)
    const step = await stepSpan('guarded', 'approve', traceId)
    expect(step.links?.map(({ traceId, spanId }) => ({ traceId, spanId }))).toEqual([{ traceId, spanId: first.spanId }])
    expect(step.parentSpanId).toBe(first.spanId)
    expect(attributesOf(step)).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'guarded',
      'toolroute.run.step': 'approve',
      'gen_ai.tool.call.id': called.headers.get('x-tool-call-id'),
      'toolroute.run.id': runId,
    })
    await collector.spanWhere((span) => span.name === 'work' && span.traceId === traceId)
    const spans = await collector.traceOf(traceId)
    const execute = spans.find((span) => span.name === 'execute' && span.parentSpanId === step.spanId)!
    expect(named(spans, 'work').parentSpanId).toBe(execute.spanId)
    // The first span's id stays on the run: neither the call's answer nor GET /runs/:runId shows it.
    const view = await fetch(`${app.url}/runs/${runId}`, { headers: callerHeaders })
    expect(`${answer} ${await view.text()}`).not.toContain(first.spanId)
  })

  it("HTTP: an approval that sends a traceparent: the approve span is its child (the approver's trace), still linked to the first", async () => {
    const called = await post('/tools/guarded', { path: SECRET_INPUT })
    const traceId = called.headers.get('x-trace-id')!
    const { runId } = (await called.json()) as { runId: string }
    const first = named(await collector.traceOf(traceId), 'execute_tool guarded')
    const approver = '9a4b26ef5fb27b82decf1a0b9c8d7e6f'
    const approved = await post(`/runs/${runId}/approve`, {}, { traceparent: `00-${approver}-5e6f708192031425-01` })
    expect(approved.status).toBe(200)
    await approved.text()
    const step = await stepSpan('guarded', 'approve', approver)
    expect(step.parentSpanId).toBe('5e6f708192031425')
    expect(step.links?.map(({ traceId, spanId }) => ({ traceId, spanId }))).toEqual([{ traceId, spanId: first.spanId }])
    await collector.spanWhere((span) => span.name === 'execute' && span.parentSpanId === step.spanId)
  })

  it("MCP 2026-07-28: an approval answered by the retry of tools/call: the approve span is the child of the retry's _meta.traceparent, linked to the first", async () => {
    /** A raw 2026-07-28 tools/call (as the SDK client sends it, the retry's fields shown) under `traceparent`. */
    const call = async (traceparent: string, retry: Record<string, unknown> = {}) => {
      const init = modernToolCall('guarded', { path: SECRET_INPUT }, retry, callerHeaders)
      const body = JSON.parse(init.body as string)
      body.params._meta.traceparent = traceparent
      return jsonRpcAnswer(await fetch(`${app.url}/mcp`, { ...init, body: JSON.stringify(body) }))
    }
    const [caller, approver] = ['0b5c37f06ac38c93efd02b1cad9e8f70', '1c6d48017bd49da4f0e13c2dbeaf9081']
    const asked = await call(`00-${caller}-6f70819203142536-01`)
    expect(asked.result.resultType).toBe('input_required')
    const [key] = Object.keys(asked.result.inputRequests)
    const first = named(await collector.traceOf(caller), 'execute_tool guarded')
    const answered = await call(`00-${approver}-708192031425364a-01`, { inputResponses: { [key!]: { action: 'accept', content: { approved: true } } }, requestState: asked.result.requestState })
    expect(answered.result.isError).toBeFalsy()
    const step = await stepSpan('guarded', 'approve', approver)
    expect(step.parentSpanId).toBe('708192031425364a')
    expect(step.links?.map(({ traceId, spanId }) => ({ traceId, spanId }))).toEqual([{ traceId: caller, spanId: first.spanId }])
  })

  it("HTTP: a background run's approval that sends a traceparent: the attempt it lets go ahead is its child (the approver's trace), linked to the first", async () => {
    const called = await post('/tools/laterGuarded', { path: SECRET_INPUT })
    expect(called.status).toBe(202)
    const traceId = called.headers.get('x-trace-id')!
    const { runId } = (await called.json()) as { runId: string }
    const first = named(await collector.traceOf(traceId), 'execute_tool laterGuarded')
    const approver = '2d7e59128ce5ab05f1f24d3ecfb0a192'
    const approved = await post(`/runs/${runId}/approve`, {}, { traceparent: `00-${approver}-8192031425364a5b-01` })
    expect(approved.status).toBe(202)
    await approved.text()
    const attempt = await collector.spanWhere((span) => attributesOf(span)['toolroute.run.id'] === runId && attributesOf(span)['toolroute.run.step'] === 'attempt')
    expect({ traceId: attempt.traceId, parentSpanId: attempt.parentSpanId }).toEqual({ traceId: approver, parentSpanId: '8192031425364a5b' })
    expect(attempt.links?.map(({ traceId, spanId }) => ({ traceId, spanId }))).toEqual([{ traceId, spanId: first.spanId }])
    const work = await collector.spanWhere((span) => span.name === 'work' && span.traceId === approver)
    expect(collector.spans.find((span) => span.spanId === work.parentSpanId)?.parentSpanId).toBe(attempt.spanId)
  })

  it('HTTP: a suspended call resumed: the resume span links to the first', async () => {
    const called = await post('/tools/paused', { note: SECRET_INPUT })
    const traceId = called.headers.get('x-trace-id')!
    const { runId } = (await called.json()) as { runId: string }
    const first = named(await collector.traceOf(traceId), 'execute_tool paused')
    const resumed = await post(`/runs/${runId}/resume`, { resumeData: { answer: SECRET_RESUME } })
    expect(resumed.status).toBe(200)
    const step = await stepSpan('paused', 'resume', traceId)
    expect(step.links?.[0]).toMatchObject({ traceId, spanId: first.spanId })
  })

  it('a background attempt is a span linked to the call that started it', async () => {
    const called = await post('/tools/later', { note: SECRET_INPUT })
    expect(called.status).toBe(202)
    const traceId = called.headers.get('x-trace-id')!
    const first = named(await collector.traceOf(traceId), 'execute_tool later')
    const step = await stepSpan('later', 'attempt', traceId)
    expect(step.links?.[0]).toMatchObject({ traceId, spanId: first.spanId })
    expect(step.parentSpanId).toBe(first.spanId)
    // Its execute is its own, though the attempt was started inside the call's request.
    await collector.spanWhere((span) => span.name === 'execute' && span.parentSpanId === step.spanId)
  })

  it('no exported span carries an input, output, resume data, request-context value or token', () => {
    const exported = JSON.stringify(collector.spans)
    expect(collector.spans.length).toBeGreaterThan(20)
    for (const secret of [SECRET_INPUT, SECRET_OUTPUT, SECRET_CONTEXT, SECRET_TOKEN, SECRET_RESUME]) expect(exported).not.toContain(secret)
  })
})
