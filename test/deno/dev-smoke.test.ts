// End to end against `deno task dev`, as a Deno user runs it: list, call with SSE, approve a
// run, resume a suspended run, a background run, MCP tools/list, and runs that survive a
// restart of the server.
import assert from 'node:assert/strict'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { startDevServer } from './dev-server.ts'
import { exampleTools, repoRoot } from './harness.ts'

const post = (url: string, body: unknown, sse = false) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(sse ? { accept: 'text/event-stream' } : {}) }, body: JSON.stringify(body) })
const json = async (response: Response) => [response.status, await response.json()] as const

Deno.test('deno task dev: the example tools end to end, and runs that outlive a restart', async (t) => {
  // Under .toolroute/: the only place `deno task dev` may write.
  await Deno.mkdir(new URL('.toolroute/', repoRoot), { recursive: true })
  const dir = await Deno.makeTempDir({ dir: new URL('.toolroute/', repoRoot).pathname, prefix: 'dev-smoke-' })
  const kvPath = `${dir}/runs.sqlite3`
  let server = await startDevServer(kvPath)
  try {
    const base = () => server.url

    await t.step('GET /tools lists every tool in tools/', async () => {
      const [status, body] = await json(await fetch(`${base()}/tools`))
      assert.equal(status, 200)
      assert.deepEqual((body.tools as { id: string }[]).map((tool) => tool.id).sort(), exampleTools.map((tool) => tool.id).sort())
    })

    await t.step('GET / serves the playground on a local host', async () => {
      const response = await fetch(`${base()}/`)
      assert.equal(response.status, 200)
      assert.equal(response.headers.get('content-type'), 'text/html; charset=UTF-8')
      const page = await response.text()
      assert.match(page, /<div id="log" role="log" aria-label="Events"/)
      assert.match(page, /<script type="module">\(function playgroundScript\(/)
    })

    await t.step('POST /tools/weather-tool with SSE', async () => {
      const response = await post(`${base()}/tools/weather-tool`, { location: 'Lisbon' }, true)
      assert.equal(response.headers.get('content-type'), 'text/event-stream')
      const sse = await readSse(response)
      assert.ok(sse.done)
      assert.deepEqual(typesOf(sse.events), ['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'finish'])
    })

    await t.step('approve a run', async () => {
      const [status, waiting] = await json(await post(`${base()}/tools/delete-file`, { path: '/tmp/x' }))
      assert.equal(status, 202)
      assert.equal(waiting.status, 'approval-required')
      const sse = await readSse(await post(`${base()}/runs/${waiting.runId}/approve`, {}, true))
      assert.deepEqual(typesOf(sse.events), ['start', 'data-tool-approval-response', 'tool-output-available', 'finish'])
      const [, run] = await json(await fetch(`${base()}/runs/${waiting.runId}`))
      assert.equal(run.status, 'completed')
      const [again] = await json(await post(`${base()}/runs/${waiting.runId}/approve`, {}))
      assert.equal(again, 409)
    })

    await t.step('resume a suspended run', async () => {
      const [status, suspended] = await json(await post(`${base()}/tools/book-flight`, { from: 'LIS', to: 'JFK' }))
      assert.equal(status, 202)
      assert.equal(suspended.status, 'suspended')
      const [bad] = await json(await post(`${base()}/runs/${suspended.runId}/resume`, { resumeData: { seat: 'nope' } }))
      assert.equal(bad, 400)
      const [ok, done] = await json(await post(`${base()}/runs/${suspended.runId}/resume`, { resumeData: { seat: '12A' } }))
      assert.equal(ok, 200)
      assert.deepEqual(done.output, { confirmation: 'LIS-JFK-12A', seat: '12A' })
    })

    await t.step('a background run completes through the Deno KV queue', async () => {
      const [status, started] = await json(await post(`${base()}/tools/generate-report`, { month: '2026-02', delayMs: 20 }))
      assert.equal(status, 202)
      const sse = await readSse(await fetch(`${base()}/runs/${started.runId}/events`, { headers: { accept: 'text/event-stream' } }))
      assert.equal(sse.events.at(-1)?.type, 'finish')
      const [, run] = await json(await fetch(`${base()}/runs/${started.runId}`))
      assert.deepEqual({ status: run.status, output: run.output }, { status: 'completed', output: { month: '2026-02', rows: 31 } })
    })

    // MCP is served by src/mcp; while it answers 501 (not built yet) this step is reported ignored.
    const mcpProbe = await post(`${base()}/mcp`, { jsonrpc: '2.0', id: 0, method: 'ping' })
    await mcpProbe.body?.cancel()
    await t.step({
      name: 'MCP tools/list',
      ignore: mcpProbe.status === 501,
      fn: async () => {
        const client = new Client({ name: 'deno-smoke', version: '1.0.0' })
        await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/mcp`)))
        try {
          const { tools } = await client.listTools()
          assert.deepEqual(tools.map((tool) => tool.name).sort(), exampleTools.map((tool) => tool.id).sort())
          const deleteFile = tools.find((tool) => tool.name === 'delete-file')
          assert.equal(deleteFile?.annotations?.destructiveHint, true)
        } finally {
          await client.close()
        }
      },
    })

    await t.step('runs outlive a restart: approved and resumed by the next server', async () => {
      const [, waiting] = await json(await post(`${base()}/tools/delete-file`, { path: '/tmp/after-restart' }))
      const [, suspended] = await json(await post(`${base()}/tools/book-flight`, { from: 'OPO', to: 'FNC' }))
      assert.equal(await server.stop(), 0, `the server stops cleanly on SIGTERM:\n${server.output()}`)
      await assert.rejects(() => fetch(`${base()}/tools`), 'nothing listens after the stop')
      server = await startDevServer(kvPath)
      const [approved, done] = await json(await post(`${base()}/runs/${waiting.runId}/approve`, {}))
      assert.equal(approved, 200)
      assert.deepEqual(done.output, { deleted: '/tmp/after-restart' })
      const [resumed, booked] = await json(await post(`${base()}/runs/${suspended.runId}/resume`, { resumeData: { seat: '14C' } }))
      assert.equal(resumed, 200)
      assert.deepEqual(booked.output, { confirmation: 'OPO-FNC-14C', seat: '14C' })
    })
  } finally {
    const code = await server.stop()
    await Deno.remove(dir, { recursive: true })
    assert.equal(code, 0, `deno task dev exits 0 on SIGTERM:\n${server.output()}`)
  }
})
