// The engine of finished runs (a Worker whose tools never wait: its runs are calls stored settled,
// for an Idempotency-Key or `storeRuns: 'all'`) against the full engine, each over its own memory
// store with one clock: every read and every caller's step answers the same, retention deletes the
// same run at the same time, and what the finished engine cannot keep (a run that must wait) is
// refused with nothing stored.
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { createRunEngine, type RunEngine } from '../../src/runs/create-run-engine.ts'
import { driveRuns } from '../../src/runs/drive-runs.ts'
import { finishedRuns } from '../../src/runs/finished-runs.ts'
import type { RunRecord } from '../../src/runs/run-record.ts'
import type { ToolEvent } from '../../src/protocol/tool-event.ts'
import { createMemoryRunStore } from '../../src/store/memory/memory-run-store.ts'

const start = Date.parse('2026-03-01T00:00:00.000Z')
const input = { name: 'Ada' }

/** A completed call as `runFirstStep` stores it under `storeRuns: 'all'`: its run and its events. */
const completed = (runId: string): RunRecord => ({
  runId,
  toolId: 'greet',
  toolCallId: 'call_1',
  principal: 'p',
  status: 'completed',
  createdAt: new Date(start).toISOString(),
  updatedAt: new Date(start).toISOString(),
  input,
  requestContext: {},
  output: { message: 'Hello, Ada!' },
})
const events = (run: RunRecord): ToolEvent[] => [
  { type: 'start', messageMetadata: { runId: run.runId, toolCallId: run.toolCallId } },
  { type: 'tool-input-start', toolCallId: run.toolCallId, toolName: run.toolId },
  { type: 'tool-input-delta', toolCallId: run.toolCallId, inputTextDelta: JSON.stringify(input) },
  { type: 'tool-input-available', toolCallId: run.toolCallId, toolName: run.toolId, input },
  { type: 'tool-output-available', toolCallId: run.toolCallId, output: run.output },
  { type: 'finish', finishReason: 'stop' },
] as ToolEvent[]

function both(options: { retentionMs?: number } = {}) {
  let clock = start
  const now = () => clock
  const make = (kind: 'full' | 'finished') => {
    const store = createMemoryRunStore()
    const scheduled: number[] = []
    const schedule = (_runId: string, at: number) => void scheduled.push(at)
    const engine: RunEngine =
      createRunEngine({ store, now, schedule, drive: kind === 'full' ? driveRuns(new Map()) : finishedRuns, ...options })
    return { engine, store, scheduled }
  }
  return { full: make('full'), finished: make('finished'), advance: (ms: number) => (clock += ms) }
}

/** What a promise settles to, errors as their code and message, so two engines' answers compare. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ ok: value }),
    (error: { code?: string; message: string }) => ({ error: { code: error.code, message: error.message } }),
  )
const collect = async (iterable: AsyncIterable<unknown>) => {
  const entries: unknown[] = []
  for await (const entry of iterable) entries.push(entry)
  return entries
}

let logged: MockInstance
beforeEach(() => {
  logged = vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => logged.mockRestore())

describe('the engine of finished runs answers as the full engine', () => {
  it('a settled run reads back the same: the record, every event (input references rebuilt), events after a cursor', async () => {
    const { full, finished } = both()
    for (const { engine } of [full, finished]) await engine.open(completed('r1'), events(completed('r1')))
    const fullView = await full.engine.get('r1', { principal: 'p', events: {} })
    expect(fullView.events.map((entry) => entry.event)).toEqual(events(completed('r1')))
    expect(await finished.engine.get('r1', { principal: 'p', events: {} })).toEqual(fullView)
    // Without a page asked for, the state alone, from both.
    expect(await finished.engine.get('r1', { principal: 'p' })).toEqual({ run: fullView.run, events: [] })
    expect(await full.engine.get('r1', { principal: 'p' })).toEqual({ run: fullView.run, events: [] })
    for (const after of [0, 3, 6, 99]) {
      const expected = await collect(await full.engine.follow('r1', { principal: 'p', after }))
      expect(await collect(await finished.engine.follow('r1', { principal: 'p', after }))).toEqual(expected)
    }
    // Both stored the same (the input's events as references to the record).
    expect(await finished.store.events('r1', 0)).toEqual(await full.store.events('r1', 0))
    expect(finished.scheduled).toEqual(full.scheduled)
  })

  it.each(['completed', 'failed'] as const)('every caller step on a %s run is refused with the same code and message; another principal and an unknown id get RUN_NOT_FOUND', async (status) => {
    const { full, finished } = both()
    const run: RunRecord = status === 'completed' ? completed('r2') : { ...completed('r2'), status, output: undefined, error: { code: 'EXECUTION_FAILED', message: 'boom' } }
    for (const { engine } of [full, finished]) await engine.open(run, [])
    const steps = (engine: RunEngine, runId: string, principal: string | null) => [
      engine.approve(runId, { principal }),
      engine.approve(runId, { principal, approvalId: 'approval_x' }),
      engine.decline(runId, { principal, reason: 'no' }),
      engine.resume(runId, { principal, resumeData: {} }),
      engine.cancel(runId, { principal }),
      engine.get(runId, { principal }),
      engine.follow(runId, { principal, after: 0 }).then(() => 'followed'),
      engine.abortStep(runId, { principal, after: 0, message: 'left' }).then(() => 'aborted'),
    ]
    for (const [runId, principal] of [['r2', 'p'], ['r2', 'q'], ['r2', null], ['missing', 'p']] as const) {
      const expected = await Promise.all(steps(full.engine, runId, principal).map(outcome))
      expect(await Promise.all(steps(finished.engine, runId, principal).map(outcome))).toEqual(expected)
    }
    expect(await outcome(finished.engine.cancel('r2', { principal: 'p' }))).toEqual({
      error: { code: 'RUN_STATE_CONFLICT', message: `Run r2 is ${status}, not running; it cannot be cancelled` },
    })
    // Refusals change nothing.
    expect(await finished.store.get('r2')).toEqual(await full.store.get('r2'))
  })

  it('retention: swept early, the run stays and asks again; past retention both delete it and answer RUN_NOT_FOUND', async () => {
    const { full, finished, advance } = both({ retentionMs: 1000 })
    for (const { engine } of [full, finished]) await engine.open(completed('r3'), events(completed('r3')))
    expect(finished.scheduled).toEqual([start + 1000])
    advance(999)
    for (const { engine } of [full, finished]) await engine.sweep('r3')
    expect(finished.scheduled).toEqual(full.scheduled)
    expect(await finished.store.get('r3')).toBeDefined()
    advance(1)
    expect(await outcome(finished.engine.get('r3', { principal: 'p' }))).toEqual(await outcome(full.engine.get('r3', { principal: 'p' })))
    expect(await finished.store.get('r3')).toBeUndefined()
    // A sweep after the run is gone, or of a run never stored, does nothing.
    await finished.engine.sweep('r3')
    await finished.engine.sweep('never')
  })

  it('a sweep past retention deletes the run without a read', async () => {
    const { finished, advance } = both({ retentionMs: 1000 })
    await finished.engine.open(completed('r4'), [])
    advance(1000)
    await finished.engine.sweep('r4')
    expect(await finished.store.get('r4')).toBeUndefined()
    expect(await finished.store.events('r4', 0)).toEqual([])
  })
})

describe('what the engine of finished runs cannot keep', () => {
  it.each(['suspended', 'approval-required', 'running'] as const)('a run that is %s is refused with EXECUTION_FAILED, logged, and nothing is stored', async (status) => {
    const { finished } = both()
    const run = { ...completed('r5'), status, output: undefined }
    await expect(finished.engine.open(run, events(run))).rejects.toMatchObject({ code: 'EXECUTION_FAILED', message: expect.stringContaining('keeps only finished runs') })
    expect(logged.mock.calls.map(([message]) => String(message))).toEqual([expect.stringContaining('toolroute: Tool "greet" needs its run kept ' + status)])
    expect(await finished.store.get('r5')).toBeUndefined()
    expect(finished.scheduled).toEqual([])
  })

  it('a waiting run left by an earlier deploy is read back, never driven, and deleted by its sweep', async () => {
    const { finished } = both()
    const left: RunRecord = { ...completed('r6'), status: 'approval-required', approvalId: 'approval_1', output: undefined }
    await finished.store.create(left, [])
    expect((await finished.engine.get('r6', { principal: 'p' })).run.status).toBe('approval-required')
    await expect(finished.engine.approve('r6', { principal: 'p' })).rejects.toMatchObject({ code: 'EXECUTION_FAILED', message: expect.stringContaining('cannot be driven') })
    // Refused as the full engine refuses it where the step cannot start.
    await expect(finished.engine.resume('r6', { principal: 'p', resumeData: {} })).rejects.toMatchObject({ code: 'RUN_STATE_CONFLICT' })
    await expect(finished.engine.approve('r6', { principal: 'q' })).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' })
    expect((await finished.store.get('r6'))?.status).toBe('approval-required')
    await finished.engine.sweep('r6')
    expect(await finished.store.get('r6')).toBeUndefined()
  })
})
