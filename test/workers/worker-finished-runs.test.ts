// A Worker whose tools never wait but whose calls may be stored (an Idempotency-Key, `storeRuns:
// 'all'`) gets `runStore: workerFinishedRunStore` from the build: its run object runs the engine of
// finished runs, not the full one (SPEC §11). Here both Workers run side by side on real Durable
// Objects (the finished one's TOOLROUTE_RUNS bound to the class its store makes, FINISHED_RUNS in
// test/workers/wrangler.toml), and every answer of the same requests is compared, ids aside.
import { env } from 'cloudflare:workers'
import { runDurableObjectAlarm } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createWorker, workerFinishedRunStore, workerKeyStore, workerMcpServer, workerRunStore } from 'toolroute/workers'
import { closeAll, connectMcp } from './mcp-client.ts'
import { legacyTasks } from '../fixtures/legacy-mcp-tasks.ts'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const bindings = env as unknown as Record<string, DurableObjectNamespace>

const greet = createTool({
  id: 'greet',
  description: 'Say hello',
  inputSchema: z.object({ name: z.string().min(1) }),
  outputSchema: z.object({ message: z.string() }),
  execute: async ({ name }) => ({ message: `Hello, ${name}!` }),
})
/** Completes once the test opens its gate: a repeat can arrive while it executes. */
const gates: (() => void)[] = []
const gated = createTool({
  id: 'gated',
  description: 'Waits for the test',
  inputSchema: z.object({ n: z.number() }),
  execute: async ({ n }) => {
    await new Promise<void>((resolve) => gates.push(resolve))
    return { n }
  },
})
const fails = createTool({
  id: 'fails',
  description: 'Throws',
  inputSchema: z.object({}),
  execute: async () => {
    throw new Error('it broke')
  },
})
// Suspends through a helper handed the whole context: neither its schemas nor its source say so.
const suspendVia = (context: { suspend?: (payload: unknown) => Promise<void> }) => context.suspend?.({ why: 'ask' })
const hidden = createTool({
  id: 'hidden-suspend',
  description: 'Suspends through a helper',
  inputSchema: z.object({}),
  execute: async (_input, context) => {
    await suspendVia(context as never)
    return { done: true }
  },
})
const tools = [greet, gated, fails, hidden]

type Kind = 'finished' | 'full'
/** The same app with either store; the finished Worker's runs go to the class its store makes. */
function app(kind: Kind, config: { storeRuns?: 'all'; mcp?: boolean } = {}) {
  const { mcp = false, ...options } = config
  const runStore = kind === 'finished' ? workerFinishedRunStore : workerRunStore
  const worker = mcp ? createWorker({ tools, keyStore: workerKeyStore, ...options, mcpServer: workerMcpServer, runStore }) : createWorker({ tools, keyStore: workerKeyStore, mcp: false, ...options, runStore })
  // MCP stateless (no TOOLROUTE_MCP): its requests are served here, not in the test Worker's session objects.
  const { TOOLROUTE_MCP: _sessions, ...unsessioned } = bindings
  const workerEnv = kind === 'finished' ? { ...unsessioned, TOOLROUTE_RUNS: bindings.FINISHED_RUNS } : unsessioned
  return {
    worker,
    runs: workerEnv.TOOLROUTE_RUNS!,
    fetch: (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
      worker.fetch(
        new Request(`http://tools.test${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...options.headers },
          ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        }),
        workerEnv,
        ctx,
      ),
  }
}

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g
const isoTime = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g
/** A response as the caller sees it, with its run ids (and the test's key prefix) written as names, its times as TIME. */
async function seen(response: Response, names: Map<string, string>, prefix?: string) {
  const name = (text: string) =>
    (prefix ? text.replaceAll(prefix, 'KEY') : text).replace(isoTime, 'TIME').replace(uuid, (id) => {
      if (!names.has(id)) names.set(id, `run-${names.size + 1}`)
      return names.get(id)!
    })
  const headers = ['content-type', 'x-run-id', 'x-tool-call-id', 'idempotent-replayed'].map((header) => [header, name(response.headers.get(header) ?? '-')])
  return { status: response.status, headers: Object.fromEntries(headers), body: name(await response.text()) }
}

const sse = { accept: 'text/event-stream' }
// A fixed call id and trace (SPEC §17: the trace id is the incoming traceparent's), so both stores answer alike.
const callId = { 'x-tool-call-id': 'call_fixed', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }

/** Everything a caller can do with keyed calls of tools that never wait, as seen. */
async function keyedTranscript(kind: Kind) {
  const { fetch: fetchAs } = app(kind)
  // Every request acts for one principal, but those that say otherwise.
  const fetch: typeof fetchAs = (method, path, options = {}) => fetchAs(method, path, { ...options, headers: { authorization: 'Bearer alice', ...options.headers } })
  const prefix = `${kind}-${crypto.randomUUID()}`
  const names = new Map<string, string>()
  const see = (response: Response) => seen(response, names, prefix)
  const call = (tool: string, body: unknown, key: string, headers: Record<string, string> = {}) =>
    fetch('POST', `/tools/${tool}`, { body, headers: { 'idempotency-key': `${prefix}-${key}`, ...callId, ...headers } })
  const transcript: Record<string, unknown> = {}

  // A JSON call, its JSON repeat and its SSE repeat.
  const first = await call('greet', { name: 'Ada' }, 'json')
  const runId = first.headers.get('x-run-id')!
  transcript.json = [await see(first), await see(await call('greet', { name: 'Ada' }, 'json')), await see(await call('greet', { name: 'Ada' }, 'json', sse))]
  // An SSE call and its repeats.
  transcript.sse = [
    await see(await call('greet', { name: 'Bo' }, 'sse', sse)),
    await see(await call('greet', { name: 'Bo' }, 'sse', sse)),
    await see(await call('greet', { name: 'Bo' }, 'sse')),
  ]
  // Another body with a used key; a failed call (its 5xx kept) and its repeat.
  transcript.reused = await see(await call('greet', { name: 'Cy' }, 'json'))
  transcript.failed = [await see(await call('fails', {}, 'fails')), await see(await call('fails', {}, 'fails', sse))]
  // A repeat while the first still executes; then the first's answer, and a repeat of it.
  const pending = call('gated', { n: 1 }, 'gated')
  while (gates.length === 0) await new Promise((resolve) => setTimeout(resolve, 1))
  transcript.concurrent = await see(await call('gated', { n: 1 }, 'gated'))
  gates.shift()!()
  transcript.gated = [await see(await pending), await see(await call('gated', { n: 1 }, 'gated'))]

  // The stored run read back, its events (from a cursor too), and every step a caller may ask.
  transcript.runs = [
    await see(await fetch('GET', `/runs/${runId}`)),
    await see(await fetch('GET', `/runs/${runId}/events`)),
    await see(await fetch('GET', `/runs/${runId}/events`, { headers: { 'last-event-id': '3' } })),
    await see(await fetch('GET', `/runs/${runId}/events?after=6`)),
    await see(await fetch('POST', `/runs/${runId}/approve`, { body: {} })),
    await see(await fetch('POST', `/runs/${runId}/approve`, { body: { approvalId: 'approval_x' }, headers: sse })),
    await see(await fetch('POST', `/runs/${runId}/decline`, { body: { reason: 'no' } })),
    await see(await fetch('POST', `/runs/${runId}/resume`, { body: { resumeData: { ok: true } } })),
    await see(await fetch('POST', `/runs/${runId}/resume`, { body: 'not an object' })),
    await see(await fetch('POST', `/runs/${runId}/cancel`, { body: {} })),
    // Another principal, an unknown id, an id that is no run id.
    await see(await fetch('GET', `/runs/${runId}`, { headers: { authorization: 'Bearer someone-else' } })),
    await see(await fetch('POST', `/runs/${runId}/cancel`, { body: {}, headers: { authorization: 'Bearer someone-else' } })),
    await see(await fetch('GET', `/runs/${crypto.randomUUID()}/events`)),
    await see(await fetch('POST', '/runs/not-a-run/approve', { body: {} })),
  ]
  // Unkeyed calls store nothing.
  const unkeyed = await fetch('POST', '/tools/greet', { body: { name: 'Di' }, headers: callId })
  transcript.unkeyed = [await see(unkeyed), await see(await fetch('GET', `/runs/${unkeyed.headers.get('x-run-id')}`))]
  return { transcript, runId }
}

let logged: MockInstance
beforeEach(() => {
  logged = vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(async () => {
  logged.mockRestore()
  await closeAll()
})

describe('a Worker whose tools never wait, with the store of finished runs', () => {
  it('answers keyed calls, their repeats and every run route as the full store does', async () => {
    const finished = await keyedTranscript('finished')
    const full = await keyedTranscript('full')
    expect(finished.transcript).toEqual(full.transcript)

    // What the transcripts hold, said outright.
    const [first, jsonRepeat, sseRepeat] = finished.transcript.json as Awaited<ReturnType<typeof seen>>[]
    expect(first).toMatchObject({ status: 200, headers: { 'x-run-id': 'run-1', 'idempotent-replayed': '-' } })
    expect(JSON.parse(first!.body)).toMatchObject({ status: 'completed', output: { message: 'Hello, Ada!' } })
    expect(jsonRepeat).toEqual({ ...first, headers: { ...first!.headers, 'idempotent-replayed': 'true' } })
    expect(sseRepeat).toMatchObject({ status: 200, headers: { 'content-type': 'text/event-stream', 'x-run-id': 'run-1', 'idempotent-replayed': 'true' } })
    expect(sseRepeat!.body).toContain('"output":{"message":"Hello, Ada!"}')
    const [sseFirst, sseAgain] = finished.transcript.sse as Awaited<ReturnType<typeof seen>>[]
    expect(sseAgain!.body).toBe(sseFirst!.body)
    expect(sseAgain!.headers['idempotent-replayed']).toBe('true')
    expect(finished.transcript.reused).toMatchObject({ status: 422, body: expect.stringContaining('IDEMPOTENCY_KEY_REUSED') })
    expect(finished.transcript.concurrent).toMatchObject({ status: 409, body: expect.stringContaining('IDEMPOTENCY_CONFLICT') })
    const runs = finished.transcript.runs as Awaited<ReturnType<typeof seen>>[]
    expect(runs.map((response) => response.status)).toEqual([200, 200, 200, 200, 409, 409, 409, 409, 400, 409, 404, 404, 404, 404])
    expect(JSON.parse(runs[9]!.body)).toEqual({ error: { code: 'RUN_STATE_CONFLICT', message: 'Run run-1 is completed, not running; it cannot be cancelled' } })
    expect((finished.transcript.unkeyed as { status: number }[]).map((response) => response.status)).toEqual([200, 404])

    // The finished Worker's run lives in the object its own store made, and nothing was logged.
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('Bearer alice')))
    const principal = `auth:${[...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
    const object = bindings.FINISHED_RUNS!.get(bindings.FINISHED_RUNS!.idFromName(finished.runId)) as unknown as { get(runId: string, caller: object): Promise<{ ok: boolean }> }
    expect(await object.get(finished.runId, { principal })).toMatchObject({ ok: true, value: { run: { runId: finished.runId, status: 'completed' } } })
    expect(logged.mock.calls.filter(([message]) => String(message).startsWith('toolroute: createWorker'))).toEqual([])
  })

  it("with storeRuns: 'all', an unkeyed call's run is stored and read back as in the full store", async () => {
    const transcripts = []
    for (const kind of ['finished', 'full'] as const) {
      const { fetch } = app(kind, { storeRuns: 'all' })
      const names = new Map<string, string>()
      const called = await fetch('POST', '/tools/greet', { body: { name: 'Ed' }, headers: { ...callId, ...sse } })
      const runId = called.headers.get('x-run-id')!
      transcripts.push([
        await seen(called, names),
        await seen(await fetch('GET', `/runs/${runId}`), names),
        await seen(await fetch('GET', `/runs/${runId}/events?after=2`), names),
        await seen(await fetch('POST', `/runs/${runId}/resume`, { body: { resumeData: 1 } }), names),
      ])
    }
    expect(transcripts[0]).toEqual(transcripts[1])
    expect(transcripts[0]!.map((response) => response.status)).toEqual([200, 200, 200, 409])
  })

  it('its alarm keeps a run until its retention, as the full object does', async () => {
    const { fetch, runs } = app('finished')
    const runId = (await fetch('POST', '/tools/greet', { body: { name: 'Flo' }, headers: { 'idempotency-key': crypto.randomUUID() } })).headers.get('x-run-id')!
    // Early (the retention is 24 h): the sweep keeps the run and sets the alarm again.
    expect(await runDurableObjectAlarm(runs.get(runs.idFromName(runId)))).toBe(true)
    expect((await fetch('GET', `/runs/${runId}`)).status).toBe(200)
    expect(await runDurableObjectAlarm(runs.get(runs.idFromName(runId)))).toBe(true)
  })

  it('a tool that suspends where the build could not see it fails with EXECUTION_FAILED, its key released, and the log says why', async () => {
    const { fetch } = app('finished')
    const key = crypto.randomUUID()
    const call = () => fetch('POST', '/tools/hidden-suspend', { body: {}, headers: { 'idempotency-key': key } })
    const failed = await call()
    expect(failed.status).toBe(500)
    const body = (await failed.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('EXECUTION_FAILED')
    expect(body.error.message).toContain('keeps only finished runs')
    expect(logged.mock.calls.map(([message]) => String(message))).toContainEqual(expect.stringContaining('Tool "hidden-suspend" needs its run kept suspended'))
    expect((await fetch('GET', `/runs/${failed.headers.get('x-run-id')}`)).status).toBe(404)
    // The key was released: a repeat executes (and fails) again rather than replaying.
    const again = await call()
    expect(again.status).toBe(500)
    expect(again.headers.get('idempotent-replayed')).toBeNull()
  })

  it('with MCP on, tasks/list answers as the full store: empty, as it lists background runs only (so this store keeps no run index)', async () => {
    for (const kind of ['finished', 'full'] as const) {
      const { fetch, worker, runs } = app(kind, { mcp: true })
      const authorization = `Bearer ${crypto.randomUUID()}`
      const called = await fetch('POST', '/tools/greet', { body: { name: 'Gus' }, headers: { authorization, 'idempotency-key': crypto.randomUUID() } })
      expect(called.status).toBe(200)
      const workerEnv = { ...bindings, TOOLROUTE_MCP: undefined, TOOLROUTE_RUNS: runs }
      const { client } = await connectMcp({ headers: { authorization }, fetch: async (url, init) => worker.fetch(new Request(url, init), workerEnv, ctx) })
      expect([kind, await legacyTasks(client).list()]).toEqual([kind, { tasks: [] }])
      // The run is there all the same.
      expect([kind, (await fetch('GET', `/runs/${called.headers.get('x-run-id')}`, { headers: { authorization } })).status]).toEqual([kind, 200])
    }
  })
})
