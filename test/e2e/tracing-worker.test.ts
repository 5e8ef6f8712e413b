// SPEC §17 on workerd: a fixture project whose config sets `tracing`, built by `toolroute build`,
// bundled by `wrangler deploy --dry-run` (nodejs_compat, for AsyncLocalStorage) and served on workerd,
// its OTLP endpoint a real HTTP server here. The spans arrive after the answer (`waitUntil`).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
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
    // MCP on, without a session object: its calls are served in the Worker, traced there.
    'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ idempotency: false, playground: false, tracing: { serviceName: 'worker-tools' } })\n`,
  },
  { nodejsCompat: true, vars: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=worker%20key' } },
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
