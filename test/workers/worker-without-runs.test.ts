// A Worker that keeps no runs (SPEC §11): createWorker imports no run engine or store, so runs are
// kept only when the entry passes `runStore` (the generated entry does when a call can reach a
// run). Without it no run can exist: `/runs/*` answers RUN_NOT_FOUND for any id, and a call that
// needs its run stored fails with EXECUTION_FAILED, before its tool runs where that can be known,
// and says so in the log.
import { env } from 'cloudflare:test'
import { DurableObject } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createWorker, workerKeyStore, workerMcpServer, workerRunStore } from 'toolroute/workers'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const executed: string[] = []

const greet = createTool({
  id: 'greet',
  description: 'Say hello',
  inputSchema: z.object({ name: z.string().min(1) }),
  outputSchema: z.object({ message: z.string() }),
  execute: async ({ name }) => {
    executed.push(`greet:${name}`)
    return { message: `Hello, ${name}!` }
  },
})
const approval = createTool({
  id: 'delete-thing',
  description: 'Needs approval',
  inputSchema: z.object({ id: z.string() }),
  requireApproval: true,
  execute: async ({ id }) => {
    executed.push(`delete:${id}`)
    return { deleted: id }
  },
})
// Suspends without declaring a schema (Mastra allows it): nothing declared says it may, so nothing is reported before it does.
const pauses = createTool({
  id: 'pauses',
  description: 'Suspends once',
  inputSchema: z.object({}),
  execute: async (_input, context) => {
    executed.push('pauses')
    if (context.agent?.resumeData === undefined) await context.suspend?.({ why: 'ask' })
    return { done: true }
  },
})

const call = (worker: ReturnType<typeof createWorker>, toolId: string, input: unknown, headers: Record<string, string> = {}) =>
  worker.fetch(new Request(`http://tools.test/tools/${toolId}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(input) }), env, ctx)
const request = (worker: ReturnType<typeof createWorker>, method: string, path: string, body?: unknown) =>
  worker.fetch(new Request(`http://tools.test${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }), env, ctx)
const logLines = (logged: MockInstance) => logged.mock.calls.map(([message]) => String(message))
/** The first request's warning that the Worker keeps no runs though its calls could need them. */
const runStoreReports = (logged: MockInstance) => logLines(logged).filter((message) => message.startsWith('toolroute: createWorker got no `runStore`'))

let logged: MockInstance
beforeEach(() => {
  executed.length = 0
  logged = vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => logged.mockRestore())

describe('a Worker whose calls cannot reach a run (idempotency: false, only tools that complete in their request)', () => {
  // What the generated entry builds for such an app: no `runStore`.
  const worker = createWorker({ tools: [greet], mcp: false, idempotency: false })

  it('answers its calls (JSON and SSE), and its bad input with the spec code; nothing is logged', async () => {
    const response = await call(worker, 'greet', { name: 'Ada' })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { runId: string; status: string; output: unknown }
    expect(body).toMatchObject({ status: 'completed', output: { message: 'Hello, Ada!' } })
    expect(response.headers.get('x-run-id')).toBe(body.runId)

    const streamed = await call(worker, 'greet', { name: 'Bo' }, { accept: 'text/event-stream' })
    expect(streamed.status).toBe(200)
    const text = await streamed.text()
    expect(text).toContain('"type":"tool-output-available"')
    expect(text).toContain('Hello, Bo!')
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)

    const bad = await call(worker, 'greet', { name: '' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INPUT_VALIDATION_FAILED')
    expect(executed).toEqual(['greet:Ada', 'greet:Bo'])
    expect(logLines(logged).filter((message) => message.includes('runStore'))).toEqual([])
  })

  it('an Idempotency-Key is ignored, as idempotency: false says: each request executes', async () => {
    const first = await call(worker, 'greet', { name: 'Cy' }, { 'idempotency-key': 'k1' })
    const second = await call(worker, 'greet', { name: 'Cy' }, { 'idempotency-key': 'k1' })
    expect([first.status, second.status]).toEqual([200, 200])
    expect(second.headers.get('idempotent-replayed')).toBeNull()
    expect(executed).toEqual(['greet:Cy', 'greet:Cy'])
  })

  it('every run route answers 404 RUN_NOT_FOUND, for the id of a call it served as for any other', async () => {
    const served = ((await (await call(worker, 'greet', { name: 'Di' })).json()) as { runId: string }).runId
    for (const runId of [served, crypto.randomUUID(), 'not-a-run-id']) {
      const answers = [
        await request(worker, 'GET', `/runs/${runId}`),
        await request(worker, 'GET', `/runs/${runId}/events`),
        await request(worker, 'POST', `/runs/${runId}/approve`, {}),
        await request(worker, 'POST', `/runs/${runId}/decline`, { reason: 'no' }),
        await request(worker, 'POST', `/runs/${runId}/resume`, { resumeData: {} }),
        await request(worker, 'POST', `/runs/${runId}/cancel`, {}),
      ]
      for (const answer of answers) {
        expect(answer.status).toBe(404)
        expect(await answer.json()).toEqual({ error: { code: 'RUN_NOT_FOUND', message: `Run ${runId} not found` } })
      }
    }
    // A bad body is still refused first, with its own code.
    const unsupported = await worker.fetch(new Request(`http://tools.test/runs/${served}/decline`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), env, ctx)
    expect(unsupported.status).toBe(415)
  })

  it('has no ToolRunObject (the entry declares one its wrangler config binds); with a run store it has one, with the engine', () => {
    expect('ToolRunObject' in worker).toBe(false)
    const keeping = createWorker({ tools: [greet], runStore: workerRunStore }).ToolRunObject
    expect(keeping.prototype).toBeInstanceOf(DurableObject)
    expect('approve' in keeping.prototype).toBe(true)
  })
})

describe('the same Worker with MCP on', () => {
  // Sessions off: calls stay in this isolate, not in the McpSessionObject of the suite's own Worker.
  const worker = createWorker({ tools: [greet], idempotency: false, mcp: { sessions: false }, mcpServer: workerMcpServer })
  const post = async (body: unknown) => {
    const response = await worker.fetch(
      new Request('http://tools.test/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify(body),
      }),
      env,
      ctx,
    )
    return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } }
  }

  it('calls its tools; a task is not found whatever its id, and the task list is empty', async () => {
    const called = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ida' } } })
    expect(called).toMatchObject({ result: { structuredContent: { message: 'Hello, Ida!' } } })
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const answer = await post({ jsonrpc: '2.0', id: 2, method, params: { taskId: crypto.randomUUID() } })
      expect(answer.error?.code).toBe(-32602)
    }
    expect((await post({ jsonrpc: '2.0', id: 3, method: 'tasks/list', params: {} })).result).toMatchObject({ tasks: [] })
    expect(logLines(logged).filter((message) => message.includes('runStore'))).toEqual([])
  })
})

describe('a hand-written entry whose calls need runs but that passes no runStore', () => {
  it('an approval call fails with EXECUTION_FAILED naming what to pass, before the tool runs; the first request logs why, once', async () => {
    const worker = createWorker({ tools: [greet, approval], mcp: false, idempotency: false })
    const refused = await call(worker, 'delete-thing', { id: 'a' })
    expect(refused.status).toBe(500)
    const { error } = (await refused.json()) as { error: { code: string; message: string } }
    expect(error.code).toBe('EXECUTION_FAILED')
    expect(error.message).toContain('Tool "delete-thing" needs its run stored')
    expect(error.message).toContain('runStore: workerRunStore')
    // Over SSE the stream ends with the same error as a tool-output-error.
    const streamed = await (await call(worker, 'delete-thing', { id: 'b' }, { accept: 'text/event-stream' })).text()
    expect(streamed).toContain('"type":"tool-output-error"')
    expect(streamed).toContain('runStore: workerRunStore')
    expect(streamed).not.toContain('tool-approval-request')
    expect(executed).toEqual([])
    // The tools that need no run still answer.
    expect((await call(worker, 'greet', { name: 'Ed' })).status).toBe(200)
    const reports = runStoreReports(logged)
    expect(reports).toHaveLength(1)
    expect(reports[0]).toContain('tool "delete-thing" may wait for approval')
    expect(reports[0]).toContain('pass `runStore: workerRunStore` (from toolroute/workers)')
  })

  it('with idempotency on (the default), a keyed call is refused before it executes and its key is released; unkeyed calls answer', async () => {
    const worker = createWorker({ tools: [greet], mcp: false, keyStore: workerKeyStore })
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await call(worker, 'greet', { name: 'Flo' }, { 'idempotency-key': 'needs-a-run' })
      expect(refused.status).toBe(500)
      expect(refused.headers.get('idempotent-replayed')).toBeNull()
      const { error } = (await refused.json()) as { error: { code: string; message: string } }
      expect(error.code).toBe('EXECUTION_FAILED')
      expect(error.message).toContain("this call's run must be stored")
      expect(error.message).toContain('runStore: workerRunStore')
    }
    expect(executed).toEqual([])
    expect((await call(worker, 'greet', { name: 'Gus' })).status).toBe(200)
    expect(executed).toEqual(['greet:Gus'])
    expect(runStoreReports(logged)[0]).toContain('calls with an Idempotency-Key store their run')
  })

  it("with storeRuns: 'all', a call is refused before it executes", async () => {
    const worker = createWorker({ tools: [greet], mcp: false, idempotency: false, storeRuns: 'all' })
    const refused = await call(worker, 'greet', { name: 'Hal' })
    expect(refused.status).toBe(500)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('EXECUTION_FAILED')
    expect(executed).toEqual([])
    expect(runStoreReports(logged)[0]).toContain("storeRuns is 'all'")
  })

  it('a tool that suspends without schemas fails once it suspends (its run cannot be kept), saying to declare one', async () => {
    const worker = createWorker({ tools: [pauses], mcp: false, idempotency: false })
    const refused = await call(worker, 'pauses', {})
    expect(refused.status).toBe(500)
    const { error } = (await refused.json()) as { error: { code: string; message: string } }
    expect(error.code).toBe('EXECUTION_FAILED')
    expect(error.message).toContain('Tool "pauses" needs its run stored')
    expect(error.message).toContain('give it a suspendSchema or resumeSchema')
    expect(executed).toEqual(['pauses'])
    // Whether a tool suspends is declared, never read from execute's source: nothing warned before the call.
    expect(runStoreReports(logged)).toEqual([])
    expect(logLines(logged).some((message) => message.startsWith('toolroute: Tool "pauses" needs its run stored'))).toBe(true)
  })

  it('a tool that declares a resumeSchema is reported at startup as one that may suspend', async () => {
    const declared = createTool({ ...pauses.options, id: 'pauses-declared', resumeSchema: z.object({ why: z.string() }) })
    const worker = createWorker({ tools: [declared], mcp: false, idempotency: false })
    await call(worker, 'pauses-declared', {})
    expect(runStoreReports(logged)[0]).toContain('tool "pauses-declared" may suspend')
  })

  it('with runStore: workerRunStore the same approval tool waits, and its run is read back', async () => {
    const worker = createWorker({ tools: [greet, approval], mcp: false, idempotency: false, runStore: workerRunStore })
    const waiting = await call(worker, 'delete-thing', { id: 'c' })
    expect(waiting.status).toBe(202)
    const { runId } = (await waiting.json()) as { runId: string }
    const run = await request(worker, 'GET', `/runs/${runId}`)
    expect(run.status).toBe(200)
    expect(await run.json()).toMatchObject({ runId, toolId: 'delete-thing', status: 'approval-required' })
    expect(runStoreReports(logged)).toEqual([])
  })
})
