// SPEC §17 on workerd: a fixture project whose config sets `tracing`, built by `toolroute build`,
// bundled by `wrangler deploy --dry-run` (nodejs_compat, for AsyncLocalStorage) and served on workerd,
// its OTLP endpoint a real HTTP server here. The spans arrive after the answer (`waitUntil`); those made in a
// Durable Object (a run's approve step, a 2025 MCP session's calls) are flushed with the object's own `waitUntil`.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { attributesOf, startCollector } from '../shared/otlp-collector.ts'
import { fixtureProject, servedFixture } from './fixture-project.ts'

const collector = await startCollector()
afterAll(() => collector.close())

const project = fixtureProject(
  'tracing',
  {
    'tools/lookup.ts': `import { trace } from '@opentelemetry/api'
import { createTool } from 'toolroute'
import { z } from 'zod'
export default createTool({
  id: 'lookup',
  description: 'Looks a thing up',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }, { observe }) =>
    observe.span('search', async () => {
      await trace.getTracer('tool-author').startActiveSpan('own-work', async (span) => span.end())
      return { found: 'OUTPUT-' + query }
    }),
})
`,
    'tools/guarded.ts': `import { createTool } from 'toolroute'
import { z } from 'zod'
export default createTool({
  id: 'guarded',
  description: 'Waits for approval, then works',
  inputSchema: z.object({ path: z.string() }),
  requireApproval: true,
  execute: async ({ path }, { observe }) => observe.span('work', async () => ({ done: 'OUTPUT-' + path })),
})
`,
    // MCP sessions in their Durable Object (TOOLROUTE_MCP bound): a 2025 client's calls are served there, a 2026 client's
    // (which answers no forms) in the Worker; a run's later steps in the run's object.
    'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ idempotency: false, playground: false, tracing: { serviceName: 'worker-tools' } })\n`,
  },
  // Batches 10 minutes apart: a span arrives only because its Worker or object flushed it with `waitUntil`.
  { nodejsCompat: true, mcpSessions: true, vars: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=worker%20key', OTEL_BSP_SCHEDULE_DELAY: '600000' } },
)

const { post, url } = servedFixture(project)

describe('a Worker with tracing exports each call span over OTLP/HTTP', () => {
  it('is built with the tracer', () => {
    expect(readFileSync(join(project.dir, '.toolroute/worker.ts'), 'utf8')).toContain('tracer: workerTracing')
  })

  it('sends the call span, parented on the traceparent, with execute, observe.span and a tool span under it', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c'
    const parent = 'b7ad6b7169203331'
    const response = await post('/tools/lookup', { query: 'INPUT-CANARY' }, { traceparent: `00-${traceId}-${parent}-01`, authorization: 'Bearer TOKEN-CANARY' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-trace-id')).toBe(traceId)
    const spans = await collector.traceOf(traceId)
    const byName = (name: string) => spans.find((span) => span.name === name)!
    const root = byName('execute_tool lookup')
    expect(root.parentSpanId).toBe(parent)
    expect(attributesOf(root)).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'toolroute.run.id': response.headers.get('x-run-id') })
    expect(byName('execute').parentSpanId).toBe(root.spanId)
    expect(byName('search').parentSpanId).toBe(byName('execute').spanId)
    expect(byName('own-work').parentSpanId).toBe(byName('search').spanId)
    expect(collector.services).toContain('worker-tools')
    expect(collector.keys).toContain('worker key')
    expect(JSON.stringify(spans)).not.toMatch(/INPUT-CANARY|OUTPUT-|TOKEN-CANARY/)
  })

  it('sends the span of an MCP tools/call (2026-07-28, the official client), a child of its _meta.traceparent', async () => {
    const client = new Client({ name: 'tracing-worker-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url()}/mcp`)))
    const traceId = '1bf92f3577b34da6a3ce929d0e0e4737'
    const result = await client.callTool({ name: 'lookup', arguments: { query: 'INPUT-CANARY' }, _meta: { traceparent: `00-${traceId}-c7ad6b7169203332-01` } })
    await client.close()
    expect(result.isError).toBeFalsy()
    const spans = await collector.traceOf(traceId)
    const root = spans.find((span) => span.name === 'execute_tool lookup')!
    expect(root.parentSpanId).toBe('c7ad6b7169203332')
    expect(attributesOf(root)['toolroute.run.id']).toBe((result._meta as Record<string, { runId: string }>)['toolroute/run']!.runId)
    for (const name of ['validate', 'execute']) expect(spans.find((span) => span.name === name)?.parentSpanId).toBe(root.spanId)
    expect(spans.find((span) => span.name === 'own-work')?.parentSpanId).toBe(spans.find((span) => span.name === 'search')?.spanId)
    expect(JSON.stringify(spans)).not.toMatch(/INPUT-CANARY|OUTPUT-/)
  })
})

describe('inside Durable Objects (SPEC §17)', () => {
  it("a call that waits for approval, approved over HTTP: the approve step's span (in the run's object) links to the call's, execute under it", async () => {
    const traceId = '2ca03b46fd7e4a5b8c9d0e1f2a3b4c5d'
    const called = await post('/tools/guarded', { path: 'INPUT-CANARY' }, { traceparent: `00-${traceId}-d8be7c827a314443-01` })
    expect(called.status).toBe(202)
    const { runId } = (await called.json()) as { runId: string }
    const first = (await collector.traceOf(traceId)).find((span) => span.name === 'execute_tool guarded')!
    expect(first.parentSpanId).toBe('d8be7c827a314443')
    const approved = await post(`/runs/${runId}/approve`, {})
    expect(approved.status).toBe(200)
    expect(JSON.stringify(await approved.json())).toContain('OUTPUT-INPUT-CANARY')
    const step = await collector.spanWhere((span) => span.traceId === traceId && attributesOf(span)['toolroute.run.step'] === 'approve')
    expect(step.name).toBe('execute_tool guarded')
    expect(step.parentSpanId).toBe(first.spanId)
    expect(step.links?.map(({ traceId, spanId }) => ({ traceId, spanId }))).toEqual([{ traceId, spanId: first.spanId }])
    expect(attributesOf(step)).toMatchObject({ 'gen_ai.tool.name': 'guarded', 'toolroute.run.id': runId })
    const execute = await collector.spanWhere((span) => span.name === 'execute' && span.parentSpanId === step.spanId)
    await collector.spanWhere((span) => span.name === 'work' && span.parentSpanId === execute.spanId)
    expect(JSON.stringify(collector.spans.filter((span) => span.traceId === traceId))).not.toMatch(/INPUT-CANARY|OUTPUT-/)
  })

  it('a 2025-era MCP client (the official SDK v1, in its session object): the call span is the child of _meta.traceparent', async () => {
    const client = new V1Client({ name: 'tracing-worker-v1', version: '1.0.0' })
    const transport = new V1Transport(new URL(`${url()}/mcp`))
    await client.connect(transport)
    expect(transport.sessionId).toBeTruthy()
    const traceId = '3db14c57fe8f4b6c9dae1f2a3b4c5d6e'
    const result = await client.callTool({ name: 'lookup', arguments: { query: 'INPUT-CANARY' }, _meta: { traceparent: `00-${traceId}-e9cf8d938b425554-01` } })
    await client.close()
    expect(result.isError).toBeFalsy()
    const spans = await collector.traceOf(traceId)
    const root = spans.find((span) => span.name === 'execute_tool lookup')!
    expect(root.parentSpanId).toBe('e9cf8d938b425554')
    expect(attributesOf(root)['toolroute.run.id']).toBe((result._meta as Record<string, { runId: string }>)['toolroute/run']!.runId)
    const execute = await collector.spanWhere((span) => span.name === 'execute' && span.parentSpanId === root.spanId)
    await collector.spanWhere((span) => span.name === 'search' && span.parentSpanId === execute.spanId)
    expect(JSON.stringify(spans)).not.toMatch(/INPUT-CANARY|OUTPUT-/)
  })
})
