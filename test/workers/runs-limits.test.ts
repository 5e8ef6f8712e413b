// Bounded runs (SPEC §12) on real Durable Objects: a run past its event-log limits fails with a
// `tool-output-error` naming the limit, its tool's abortSignal aborts, and what it stored stays;
// reads of a run move a page at a time, so a large run stays readable by every route and MCP.
// The limits are small in one Worker (the LIMITED_RUNS objects, test/workers/worker.ts) and the
// real defaults in the other (one run of ~8 MiB, written as fast as the object stores it).
import { env } from 'cloudflare:workers'
import { afterAll, describe, expect, it } from 'vitest'
import { createWorker, workerRunStore } from 'toolroute/workers'
import type { ToolEvent } from 'toolroute'
import type { RunView } from 'toolroute/server'
import { readSse } from '../fixtures/read-sse.ts'
import { eventually, origin } from './http-client.ts'
import { closeAll, connectMcp } from './mcp-client.ts'
import { legacyTasks } from '../fixtures/legacy-mcp-tasks.ts'
import { as, counter, entriesOf, getRun, runAction, runEvents, sequenced, start, uniqueKey } from './run-client.ts'
import { limitedRunLimits, runFixtureTools } from './run-fixture-tools.ts'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const limited = createWorker({ tools: runFixtureTools, mcp: false, runStore: workerRunStore, runLimits: limitedRunLimits })
const limitedEnv = { ...env, TOOLROUTE_RUNS: (env as unknown as Record<string, DurableObjectNamespace>).LIMITED_RUNS }
const fetchLimited = async (path: string, init: RequestInit = {}): Promise<Response> => limited.fetch(new Request(`${origin}${path}`, init), limitedEnv, ctx)

async function startLimited(input: unknown): Promise<string> {
  const response = await fetchLimited('/tools/flood-background', { method: 'POST', headers: { 'content-type': 'application/json', ...as('alice') }, body: JSON.stringify(input) })
  expect(response.status).toBe(202)
  return ((await response.json()) as { runId: string }).runId
}
const viewOf = async (response: Response) => {
  expect(response.status).toBe(200)
  return (await response.json()) as RunView
}
const settled = (read: () => Promise<Response>) => eventually(async () => viewOf(await read()), (run) => run.status !== 'running')
/** The whole log over SSE, from event 0. */
const replay = async (response: Response) => {
  expect(response.status).toBe(200)
  const { messages, done } = await readSse(response)
  expect(done).toBe(true)
  return entriesOf(messages)
}
const writtenIndexes = (entries: { event: ToolEvent }[]) =>
  entries.flatMap(({ event }) => (event.type === 'data-tool-output' ? [(event.data.output as { index: number }).index] : []))

afterAll(closeAll)

describe('bounded runs: past a limit the run fails, naming it, and keeps what it stored', () => {
  it('maxEvents: status failed, error and tool-output-error name the limit, the tool was aborted, the log is whole', async () => {
    const key = uniqueKey('flood-events')
    const runId = await startLimited({ key, events: 500, bytes: 10 })
    const run = await settled(() => fetchLimited(`/runs/${runId}`, { headers: as('alice') }))
    const message = `The run's event log reached its limit of ${limitedRunLimits.maxEvents} events (runLimits.maxEvents)`
    expect(run).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message } })
    expect(await counter(`${key}:aborted`).count()).toBe(1)
    const entries = await replay(await fetchLimited(`/runs/${runId}/events`, { headers: as('alice') }))
    // The limit, then the run's own end: its tool-output-error and finish, past it.
    expect(entries.length).toBeLessThanOrEqual(limitedRunLimits.maxEvents + 2)
    expect(entries.map((entry) => entry.id)).toEqual(entries.map((_, index) => index + 1))
    expect(entries.slice(-2).map((entry) => entry.event)).toEqual([
      { type: 'tool-output-error', toolCallId: expect.any(String), errorText: message },
      { type: 'finish', finishReason: 'error' },
    ])
    // Every write stored is there, in order, with none missing before the limit.
    const indexes = writtenIndexes(entries)
    expect(indexes.length).toBeGreaterThan(limitedRunLimits.maxEvents - 20)
    expect(indexes).toEqual(indexes.map((_, index) => index))
  })

  it('maxEventBytes: a run of large values fails naming the bytes, and its events stay readable', async () => {
    const runId = await startLimited({ key: uniqueKey('flood-bytes'), events: 40, bytes: 4000 })
    const run = await settled(() => fetchLimited(`/runs/${runId}`, { headers: as('alice') }))
    expect(run.error?.message).toBe(`The run's event log reached its limit of ${limitedRunLimits.maxEventBytes} bytes of event data (runLimits.maxEventBytes)`)
    const entries = await replay(await fetchLimited(`/runs/${runId}/events`, { headers: as('alice') }))
    const bytes = entries.reduce((sum, entry) => sum + new TextEncoder().encode(JSON.stringify(entry.event)).byteLength, 0)
    expect(bytes).toBeLessThanOrEqual(limitedRunLimits.maxEventBytes + 1000)
    // A batch of writes that would pass the limit is refused whole: fewer may be stored than would fit.
    expect(writtenIndexes(entries)).toEqual(writtenIndexes(entries).map((_, index) => index))
    expect(writtenIndexes(entries).length).toBeGreaterThan(0)
  })

  it('GET /runs/:runId pages its transcript: the latest page, then transcriptCursor as ?before= back to the first event', async () => {
    const runId = await startLimited({ key: uniqueKey('flood-pages'), events: 500, bytes: 10 })
    const whole = await settled(() => fetchLimited(`/runs/${runId}?limit=1000`, { headers: as('alice') }))
    expect(whole.transcriptCursor).toBeUndefined()
    const pages: RunView[] = []
    for (let path = `/runs/${runId}?limit=7`; ; ) {
      const page = await viewOf(await fetchLimited(path, { headers: as('alice') }))
      expect(page).toMatchObject({ runId, status: 'failed' })
      pages.push(page)
      if (!page.transcriptCursor) break
      path = `/runs/${runId}?limit=7&before=${page.transcriptCursor}`
    }
    expect(pages.length).toBeGreaterThan(5)
    for (const page of pages) expect(page.transcript.length).toBeLessThanOrEqual(7)
    expect(pages.reverse().flatMap((page) => page.transcript)).toEqual(whole.transcript)
    // The default page is the latest 100 events at most; a cursor or limit that is no number reads as absent.
    const latest = await viewOf(await fetchLimited(`/runs/${runId}?before=abc&limit=-3`, { headers: as('alice') }))
    expect(latest.transcript).toEqual(whole.transcript.slice(-latest.transcript.length))
    expect((await fetchLimited(`/runs/${runId}?before=1`, { headers: as('alice') }).then(viewOf)).transcript).toEqual([])
    expect((await fetchLimited(`/runs/${runId}?limit=5`, { headers: as('bob') })).status).toBe(404)
  })
})

describe('a step that ends within its turn answers with at most a page of events in its RPC', () => {
  it('a step of 300 events: JSON answers its output, SSE streams every event in order', async () => {
    const first = await start('burst-approval', { count: 300 }, { auth: 'alice' })
    const json = await runAction(first.runId, 'approve', undefined, { auth: 'alice' })
    expect(await json.json()).toMatchObject({ status: 'completed', output: { count: 300 } })
    const second = await start('burst-approval', { count: 300 }, { auth: 'alice' })
    const { entries, done } = await sequenced(await runAction(second.runId, 'approve', undefined, { auth: 'alice', sse: true }))
    expect(done).toBe(true)
    expect(writtenIndexes(entries)).toEqual(Array.from({ length: 300 }, (_, index) => index))
    // In order (the display view leaves out the raw-only model output, so ids may skip one).
    expect(entries.every((entry, index) => index === 0 || entry.id > entries[index - 1]!.id)).toBe(true)
    expect(entries.at(-1)?.event).toEqual({ type: 'finish', finishReason: 'stop' })
  })
})

describe('a large run at the real default limits stays readable everywhere', () => {
  it('~8 MiB of events: fails at maxEventBytes; GET, /events from any id, tasks/get, tasks/result and tasks/list all answer', async () => {
    const key = uniqueKey('flood-default')
    // ~1 KiB a value: past 8 MiB near 8,000 events, below the 10,000-event limit.
    const { runId } = await start('flood-background', { key, events: 12_000, bytes: 1000 }, { auth: 'alice' })
    const run = await eventually(
      async () => viewOf(await getRun(runId, { auth: 'alice' })),
      (view) => view.status !== 'running',
      600,
    )
    expect(run.error?.message).toBe("The run's event log reached its limit of 8388608 bytes of event data (runLimits.maxEventBytes)")
    expect(run.transcript.length).toBeLessThanOrEqual(100)
    expect(Number(run.transcriptCursor)).toBeGreaterThan(7_000)
    expect(await counter(`${key}:aborted`).count()).toBe(1)

    // The whole log streams from the store a page at a time, every event once, in order.
    const entries = await replay(await runEvents(runId, { auth: 'alice' }))
    expect(entries.map((entry) => entry.id)).toEqual(entries.map((_, index) => index + 1))
    expect(entries.at(-1)?.event).toEqual({ type: 'finish', finishReason: 'error' })
    // From the last id: nothing more, and the end.
    expect(await replay(await runEvents(runId, { auth: 'alice', lastEventId: entries.length }))).toEqual([])

    const { client } = await connectMcp({ headers: as('alice') })
    expect(await legacyTasks(client).get(runId)).toMatchObject({ taskId: runId, status: 'failed' })
    const result = await legacyTasks(client).result(runId)
    expect(result.isError).toBe(true)
    expect((await legacyTasks(client).list()).tasks.map((task) => task.taskId)).toContain(runId)
  }, 120_000)
})
