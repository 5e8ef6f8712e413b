// Issue 45 on real Durable Objects: a key settles whatever the tool returned (no JSON, too large to
// keep, nothing), every stream ends, errors carry a message and never the thrown object, hooks never
// fail a call, a bad x-tool-call-id or approvalId is refused.
import * as ai7 from 'ai'
import * as ai6 from 'ai6'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createWorker, workerRunStore } from 'toolroute/workers'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { eventually, origin } from './http-client.ts'
import { as, call, counter, errorOf, getRun, runAction, runEvents, start, uniqueKey } from './run-client.ts'
import { limitedRunLimits, runFixtureTools } from './run-fixture-tools.ts'

const notJson = 'Tool output is not JSON (a BigInt, a cycle or a toJSON that throws): it cannot be sent or kept'
const keyed = (key: string, sse = false) => ({ auth: 'alice', sse, headers: { 'idempotency-key': key } })

describe('a key settles whatever the tool returned (SPEC §9)', () => {
  for (const kind of ['bigint', 'cycle', 'tojson'] as const) {
    it(`${kind}: the first call fails naming why, every repeat replays it, it executed once`, async () => {
      const key = uniqueKey(kind)
      const first = await call('odd-output', { key, kind }, keyed(key))
      const firstText = await first.text()
      expect(first.status).toBe(500)
      expect(JSON.parse(firstText)).toEqual({ error: { code: 'EXECUTION_FAILED', message: notJson } })
      expect(first.headers.get('x-run-id')).toBeTruthy()
      for (let repeat = 0; repeat < 2; repeat++) {
        const again = await call('odd-output', { key, kind }, keyed(key))
        expect(again.status).toBe(500)
        expect(again.headers.get('idempotent-replayed')).toBe('true')
        expect(again.headers.get('x-run-id')).toBe(first.headers.get('x-run-id'))
        expect(await again.text()).toBe(firstText)
      }
      // An SSE repeat replays the kept run: its failure, then finish and [DONE].
      const sse = await readSse(await call('odd-output', { key, kind }, keyed(key, true)))
      expect(sse.done).toBe(true)
      expect(sse.events.slice(-2)).toEqual([
        { type: 'tool-output-error', toolCallId: expect.any(String), errorText: notJson },
        { type: 'finish', finishReason: 'error' },
      ])
      expect(await counter(key).count()).toBe(1)
    })
  }

  it('an output too large for a Durable Object row fails naming the limit, never SQLITE_TOOBIG, and never executes again', async () => {
    const key = uniqueKey('huge')
    const first = await call('odd-output', { key, kind: 'huge' }, keyed(key))
    const error = await errorOf(first)
    expect(error).toMatchObject({ status: 500, code: 'EXECUTION_FAILED' })
    expect(error.message).toMatch(/over the limit of one Durable Object SQLite row \(2 MB\)/)
    expect(error.message).not.toMatch(/SQLITE|too big/)
    const again = await call('odd-output', { key, kind: 'huge' }, keyed(key))
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await errorOf(again)).toEqual(error)
    const run = await (await getRun(first.headers.get('x-run-id')!, { auth: 'alice' })).json()
    expect(run).toMatchObject({ status: 'failed', error: { message: error.message } })
    expect(await counter(key).count()).toBe(1)
  })

  it('a keyed SSE call whose output is no JSON ends its stream, and its key replays the failure', async () => {
    const key = uniqueKey('sse-bigint')
    const first = await readSse(await call('odd-output', { key, kind: 'bigint' }, keyed(key, true)))
    expect(first.done).toBe(true)
    expect(first.events.at(-1)).toEqual({ type: 'finish', finishReason: 'error' })
    expect(first.events).toContainEqual({ type: 'tool-output-error', toolCallId: expect.any(String), errorText: notJson })
    const json = await call('odd-output', { key, kind: 'bigint' }, keyed(key))
    expect(await errorOf(json)).toMatchObject({ status: 500, message: notJson })
    expect(await counter(key).count()).toBe(1)
  })
})

describe('every stream ends (SPEC §3)', () => {
  for (const kind of ['bigint', 'cycle', 'tojson'] as const) {
    it(`${kind}: an SSE call gets tool-output-error, finish and [DONE]; JSON gets the same failure`, async () => {
      for (const view of ['raw', 'display']) {
        const response = await call(`odd-output?view=${view}`, { key: uniqueKey(kind), kind }, { sse: true })
        const { events, done } = await readSse(response)
        expect(done).toBe(true)
        expect(typesOf(events).slice(-2)).toEqual(['tool-output-error', 'finish'])
        expect(events.at(-2)).toMatchObject({ errorText: notJson })
      }
      expect(await errorOf(await call('odd-output', { key: uniqueKey(kind), kind }))).toMatchObject({ status: 500, code: 'EXECUTION_FAILED', message: notJson })
    })
  }

  it('a display transform that returns a cycle sends "payload unavailable" and the stream goes on to [DONE]', async () => {
    const { events, done } = await readSse(await call('odd-output', { key: uniqueKey('viewcycle'), kind: 'viewcycle' }, { sse: true }))
    expect(done).toBe(true)
    expect(events).toContainEqual({ type: 'tool-output-available', toolCallId: expect.any(String), output: { message: 'Tool output payload unavailable' } })
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' })
  })

  it('GET /runs/:id with a transcript transform returning a cycle answers, and its transcript events stream to the end', async () => {
    const key = uniqueKey('transcript')
    const first = await call('odd-output', { key, kind: 'plain' }, keyed(key))
    expect(first.status).toBe(200)
    const runId = first.headers.get('x-run-id')!
    const view = await getRun(runId, { auth: 'alice' })
    expect(view.status).toBe(200)
    const body = (await view.json()) as { output: unknown; transcript: { type: string; output?: unknown }[] }
    expect(body.output).toEqual({ ok: true })
    expect(body.transcript.find((event) => event.type === 'tool-output-available')?.output).toEqual({ message: 'Tool output payload unavailable' })
    const streamed = await readSse(await runEvents(runId, { auth: 'alice', view: 'transcript' }))
    expect(streamed.done).toBe(true)
    expect(streamed.events).toContainEqual({ type: 'tool-output-available', toolCallId: expect.any(String), output: { message: 'Tool output payload unavailable' } })
    expect(streamed.events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' })
  })

  it('a tool that returns nothing answers output: null in JSON, in the run, and in a chunk both AI SDK majors accept', async () => {
    const key = uniqueKey('void')
    const json = await call('odd-output', { key, kind: 'void' }, keyed(key))
    expect(await json.json()).toMatchObject({ status: 'completed', output: null, modelOutput: { type: 'json', value: null } })
    const run = (await (await getRun(json.headers.get('x-run-id')!, { auth: 'alice' })).json()) as Record<string, unknown>
    expect(run).toMatchObject({ status: 'completed', output: null })
    const { events } = await readSse(await call('odd-output', { key: uniqueKey('void'), kind: 'void' }, { sse: true }))
    expect(events.find((event) => event.type === 'tool-output-available')).toEqual({ type: 'tool-output-available', toolCallId: expect.any(String), output: null })
    for (const sdk of [ai7, ai6] as unknown as (typeof ai7)[]) {
      const response = await call('odd-output', { key: uniqueKey('void'), kind: 'void' }, { sse: true })
      const reader = sdk.parseJsonEventStream({ stream: response.body!, schema: sdk.uiMessageChunkSchema }).getReader()
      const results: { success: boolean; value?: { type: string } }[] = []
      for (let next = await reader.read(); !next.done; next = await reader.read()) results.push(next.value as never)
      expect(results.every((result) => result.success)).toBe(true)
      expect(results.map((result) => result.value?.type)).toContain('tool-output-available')
    }
  })
})

describe('errors carry a message, not an object; hooks never fail a call', () => {
  it('a thrown object with a string message becomes that message, one without becomes the fixed text; nothing else crosses', async () => {
    const withMessage = await call('odd-throw', { kind: 'withMessage' })
    const text = await withMessage.text()
    expect(JSON.parse(text)).toEqual({ error: { code: 'EXECUTION_FAILED', message: 'card declined' } })
    expect(text).not.toMatch(/sk_live|E42/)
    for (const kind of ['noMessage', 'number']) {
      expect(await errorOf(await call('odd-throw', { kind }))).toMatchObject({ status: 500, message: 'Tool threw a non-Error value' })
    }
    const sse = await call('odd-throw', { kind: 'noMessage' }, { sse: true })
    const streamed = await sse.text()
    expect(streamed).toContain('Tool threw a non-Error value')
    expect(streamed).not.toMatch(/sk_live|E42/)
  })

  it('hooks that throw a value whose toString throws never fail the call', async () => {
    const response = await call('odd-throw', { kind: 'none' })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'completed', output: { ok: true } })
  })
})

describe('bounded request fields', () => {
  it('an x-tool-call-id over 128 characters or outside visible ASCII answers 400 INVALID_HEADER and is never echoed', async () => {
    for (const id of ['a'.repeat(129), 'a'.repeat(100_000), 'has space', 'tab\there']) {
      const response = await call('odd-output', { key: uniqueKey('id'), kind: 'plain' }, { headers: { 'x-tool-call-id': id } })
      expect(await errorOf(response)).toMatchObject({ status: 400, code: 'INVALID_HEADER' })
      expect(response.headers.get('x-tool-call-id')).toBeNull()
      const key = uniqueKey('id-keyed')
      const keyedResponse = await call('odd-output', { key, kind: 'plain' }, { headers: { 'x-tool-call-id': id, 'idempotency-key': key } })
      expect(keyedResponse.status).toBe(400)
      expect(keyedResponse.headers.get('x-tool-call-id')).toBeNull()
    }
    expect(await counter('never').count()).toBe(0)
    const ok = await call('odd-output', { key: uniqueKey('id'), kind: 'plain' }, { headers: { 'x-tool-call-id': `call_${'x'.repeat(123)}` } })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('x-tool-call-id')).toBe(`call_${'x'.repeat(123)}`)
  })

  it('a non-string approvalId answers 400 and leaves the run waiting', async () => {
    const { runId, approvalId } = await start('counted-approval', { key: uniqueKey('approve') }, { auth: 'alice' })
    for (const bad of [5, { id: approvalId }, [approvalId], true]) {
      const response = await runAction(runId, 'approve', { approvalId: bad }, { auth: 'alice' })
      expect(await errorOf(response)).toMatchObject({ status: 400, code: 'INPUT_VALIDATION_FAILED', message: expect.stringContaining('approvalId') })
    }
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'approval-required', approvalId })
    expect((await runAction(runId, 'approve', { approvalId }, { auth: 'alice' })).status).toBe(200)
  })
})

describe('a background run that reaches a limit is never retried', () => {
  it('an output too large for its run record fails the run naming the limit, after one attempt', async () => {
    const key = uniqueKey('huge-background')
    const { runId } = await start('huge-background', { key }, { auth: 'alice' })
    const run = await eventually(async () => (await (await getRun(runId, { auth: 'alice' })).json()) as { status: string; error?: { message: string } }, (value) => value.status !== 'running')
    expect(run.status).toBe('failed')
    expect(run.error?.message).toMatch(/over the limit of one Durable Object SQLite row \(2 MB\)/)
    const streamed = await readSse(await runEvents(runId, { auth: 'alice' }))
    expect(streamed.done).toBe(true)
    expect(streamed.events.at(-1)).toEqual({ type: 'finish', finishReason: 'error' })
    expect(await counter(key).count()).toBe(1)
  })

  it('an approved step whose output is no JSON fails naming why, and executed once', async () => {
    const key = uniqueKey('odd-approval')
    const { runId } = await start('odd-approval', { key }, { auth: 'alice' })
    const approved = await runAction(runId, 'approve', undefined, { auth: 'alice' })
    expect(await errorOf(approved)).toMatchObject({ status: 500, code: 'EXECUTION_FAILED', message: notJson })
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'failed', error: { message: notJson } })
    expect(await counter(key).count()).toBe(1)
  })

  it('fails naming the limit after one attempt, whatever its maxRetries', async () => {
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
    const limited = createWorker({ tools: runFixtureTools, mcp: false, runStore: workerRunStore, runLimits: limitedRunLimits })
    const limitedEnv = { ...env, TOOLROUTE_RUNS: (env as unknown as Record<string, DurableObjectNamespace>).LIMITED_RUNS }
    const key = uniqueKey('retrying-flood')
    const started = await limited.fetch(
      new Request(`${origin}/tools/retrying-flood`, { method: 'POST', headers: { 'content-type': 'application/json', ...as('alice') }, body: JSON.stringify({ key, events: 500 }) }),
      limitedEnv,
      ctx,
    )
    expect(started.status).toBe(202)
    const { runId } = (await started.json()) as { runId: string }
    const read = async () => (await (await limited.fetch(new Request(`${origin}/runs/${runId}`, { headers: as('alice') }), limitedEnv, ctx)).json()) as { status: string; error?: { message: string } }
    const run = await eventually(read, (value) => value.status !== 'running')
    expect(run).toMatchObject({ status: 'failed', error: { message: `The run's event log reached its limit of ${limitedRunLimits.maxEvents} events (runLimits.maxEvents)` } })
    expect(await counter(`${key}:attempts`).count()).toBe(1)
  })
})
