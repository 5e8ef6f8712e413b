// SPEC §17 under Deno: tools served by Deno.serve, configured the standard way (OTEL_EXPORTER_OTLP_ENDPOINT),
// send their spans over OTLP/HTTP to a real endpoint here: a call's span under its traceparent, with validate,
// execute and observe.span inside, and an approval's span linked to it. No attribute carries a value.
import assert from 'node:assert/strict'
import { createTool } from 'toolroute'
import { createDenoToolApp } from 'toolroute/deno'
import { z } from 'zod'
import { attributesOf, startCollector } from '../shared/otlp-collector.ts'

const lookup = createTool({
  id: 'lookup',
  description: 'Looks a thing up inside an observe.span',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }, { observe }) => observe.span('search', async () => ({ found: `OUTPUT-CANARY-${query.length}` })),
})
const guarded = createTool({
  id: 'guarded',
  description: 'Waits for approval',
  inputSchema: z.object({ path: z.string() }),
  requireApproval: true,
  execute: async ({ path }) => ({ done: path.length }),
})

Deno.test('tracing: spans of a call and of its approval reach an OTLP/HTTP endpoint from Deno', async () => {
  const collector = await startCollector()
  Deno.env.set('OTEL_EXPORTER_OTLP_ENDPOINT', collector.url)
  Deno.env.set('OTEL_BSP_SCHEDULE_DELAY', '50')
  const kv = await Deno.openKv(':memory:')
  const { app } = await createDenoToolApp({ tools: [lookup, guarded], kv, queue: false, tracing: { serviceName: 'deno-tools' } })
  const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, app.fetch)
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${server.addr.port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer TOKEN-CANARY', ...headers }, body: JSON.stringify(body) })
  try {
    const traceId = '8f3b15de4ea16071cdbe0f9a8b7c6d5e'
    const called = await post('/tools/lookup', { query: 'INPUT-CANARY' }, { traceparent: `00-${traceId}-4d5e6f7081920314-01` })
    assert.equal(called.status, 200)
    assert.equal(called.headers.get('x-trace-id'), traceId)
    await called.body?.cancel()
    const spans = await collector.traceOf(traceId)
    const byName = (name: string) => spans.find((span) => span.name === name)!
    const root = byName('execute_tool lookup')
    assert.equal(root.parentSpanId, '4d5e6f7081920314')
    assert.equal(attributesOf(root)['toolroute.run.id'], called.headers.get('x-run-id'))
    assert.equal(byName('validate').parentSpanId, root.spanId)
    assert.equal(byName('search').parentSpanId, byName('execute').spanId)
    assert.ok(collector.services.includes('deno-tools'))

    const waiting = await post('/tools/guarded', { path: 'INPUT-CANARY' })
    assert.equal(waiting.status, 202)
    const { runId } = await waiting.json()
    const approvalTrace = waiting.headers.get('x-trace-id')!
    const first = (await collector.traceOf(approvalTrace)).find((span) => span.name === 'execute_tool guarded')!
    const approved = await post(`/runs/${runId}/approve`, {})
    assert.equal(approved.status, 200)
    await approved.body?.cancel()
    const step = await collector.spanWhere((span) => span.traceId === approvalTrace && attributesOf(span)['toolroute.run.step'] === 'approve')
    assert.deepEqual(step.links?.map(({ traceId, spanId }) => [traceId, spanId]), [[approvalTrace, first.spanId]])
    assert.doesNotMatch(JSON.stringify(collector.spans), /CANARY/)
  } finally {
    await server.shutdown()
    kv.close()
    await collector.close()
    Deno.env.delete('OTEL_EXPORTER_OTLP_ENDPOINT')
    Deno.env.delete('OTEL_BSP_SCHEDULE_DELAY')
  }
})
