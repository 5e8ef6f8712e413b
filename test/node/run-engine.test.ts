// The run engine over the memory store, in Node, with a clock the test moves: configurable time
// to live and retention, the one time each state asks to be swept at, and in-process
// exactly-once execution and cancellation.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/runtime/create-tool.ts'
import { createRunEngine, type RunEngineOptions } from '../../src/runs/create-run-engine.ts'
import { driveRuns } from '../../src/runs/drive-runs.ts'
import type { RunRecord } from '../../src/runs/run-record.ts'
import type { AnyTool } from '../../src/tool/tool-types.ts'
import { createMemoryRunStore } from '../../src/store/memory/memory-run-store.ts'
import { runHostForCall } from '../../src/runs/run-host-for-call.ts'

let executions = 0
const approveMe = createTool({
  id: 'approve-me',
  description: 'Needs approval',
  inputSchema: z.object({ n: z.number() }),
  requireApproval: true,
  execute: async ({ n }) => ({ n, execution: ++executions }),
})
let release: (() => void) | undefined
const waitForRelease = createTool({
  id: 'wait-for-release',
  description: 'Background work that waits until released or aborted',
  inputSchema: z.object({}),
  background: { enabled: true, timeoutMs: 60_000, maxRetries: 0 },
  execute: async (_input, { abortSignal }) => {
    await new Promise<void>((resolve, reject) => {
      release = resolve
      abortSignal.addEventListener('abort', () => reject(abortSignal.reason), { once: true })
    })
    return { released: true }
  },
})
const approvedThenWaits = createTool({
  id: 'approved-then-waits',
  description: 'Needs approval, then waits until aborted',
  inputSchema: z.object({ n: z.number() }),
  requireApproval: true,
  execute: async (_input, { abortSignal }) =>
    new Promise<never>((_resolve, reject) => abortSignal.addEventListener('abort', () => reject(abortSignal.reason), { once: true })),
})
const tools = new Map<string, AnyTool>([
  [approveMe.id, approveMe as unknown as AnyTool],
  [waitForRelease.id, waitForRelease as unknown as AnyTool],
  [approvedThenWaits.id, approvedThenWaits as unknown as AnyTool],
])

function setup(options: Partial<RunEngineOptions> = {}) {
  let clock = Date.parse('2026-03-01T00:00:00.000Z')
  const scheduled: number[] = []
  const store = createMemoryRunStore()
  const engine = createRunEngine({ drive: driveRuns(tools), store, now: () => clock, schedule: (_runId, at) => void scheduled.push(at), ...options })
  return { engine, store, scheduled, advance: (ms: number) => (clock += ms), now: () => clock }
}

const waiting = (runId: string, at: number): RunRecord => ({
  runId,
  toolId: 'approve-me',
  toolCallId: 'call_1',
  principal: 'p',
  status: 'approval-required',
  createdAt: new Date(at).toISOString(),
  updatedAt: new Date(at).toISOString(),
  input: { n: 1 },
  requestContext: {},
  approvalId: 'approval_1',
})

async function drain(segment: { events: AsyncIterable<unknown>; settled: Promise<RunRecord> }) {
  for await (const _ of segment.events);
  return segment.settled
}

describe('run engine', () => {
  it('the time to live is configurable: a run waiting past it is RUN_EXPIRED', async () => {
    const { engine, advance, scheduled, now } = setup({ ttlMs: 60_000 })
    await engine.open(waiting('r1', now()), [])
    expect(scheduled).toEqual([now() + 60_000])
    advance(59_999)
    expect((await engine.get('r1', { principal: 'p' })).run.status).toBe('approval-required')
    advance(1)
    await expect(engine.approve('r1', { principal: 'p' })).rejects.toMatchObject({ code: 'RUN_EXPIRED' })
    expect((await engine.get('r1', { principal: 'p' })).run.status).toBe('expired')
  })

  it('retention is configurable: a settled run is deleted by its sweep once retention has passed', async () => {
    const { engine, store, advance, scheduled, now } = setup({ retentionMs: 1000 })
    await engine.open(waiting('r2', now()), [])
    const settled = await drain(await engine.approve('r2', { principal: 'p' }))
    expect(settled.status).toBe('completed')
    // The step moved the sweep one TTL ahead, then the settled run asked for retention.
    expect(scheduled.at(-1)).toBe(Date.parse(settled.updatedAt) + 1000)
    await engine.sweep('r2')
    expect(await store.get('r2')).toBeDefined()
    advance(1000)
    await engine.sweep('r2')
    expect(await store.get('r2')).toBeUndefined()
    await expect(engine.get('r2', { principal: 'p' })).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' })
  })

  it('another principal gets RUN_NOT_FOUND, never the run', async () => {
    const { engine, now } = setup()
    await engine.open(waiting('r3', now()), [])
    await expect(engine.get('r3', { principal: 'q' })).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' })
    await expect(engine.approve('r3', { principal: null })).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' })
  })

  it('50 concurrent approvals in one process: one execution', async () => {
    const { engine, now } = setup()
    await engine.open(waiting('r4', now()), [])
    const before = executions
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => engine.approve('r4', { principal: 'p' }).then(drain)))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'RUN_STATE_CONFLICT' })
    expect(executions - before).toBe(1)
  })

  it('cancel aborts a background attempt in progress, and nothing is stored after its finish', async () => {
    const { engine, store, now } = setup({ schedule: undefined })
    await engine.open({ ...waiting('r5', now()), toolId: 'wait-for-release', status: 'running', background: true, attempts: 0, approvalId: undefined }, [])
    while (!release) await new Promise((resolve) => setTimeout(resolve, 1))
    const cancelled = await engine.cancel('r5', { principal: 'p' })
    expect(cancelled.status).toBe('cancelled')
    release()
    await new Promise((resolve) => setTimeout(resolve, 10))
    const log = await store.events('r5', 0)
    expect(log.at(-1)?.event).toEqual({ type: 'finish', finishReason: 'other' })
    expect((await store.get('r5'))?.status).toBe('cancelled')
  })

  it('abortStep stops the step its caller started, never another, and only for the run\'s principal', async () => {
    const { engine, now } = setup()
    await engine.open({ ...waiting('r6', now()), toolId: 'approved-then-waits' }, [])
    const segment = await engine.approve('r6', { principal: 'p' })
    const after = segment.after!
    await expect(engine.abortStep('r6', { principal: 'q', after, message: 'x' })).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' })
    await engine.abortStep('r6', { principal: 'p', after: after + 1, message: 'a later step' })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect((await engine.get('r6', { principal: 'p' })).run.status).toBe('running')
    await engine.abortStep('r6', { principal: 'p', after, message: 'The caller disconnected' })
    expect(await drain(segment)).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'The caller disconnected' } })
  })

  it('defer is per call: a step’s work goes to the defer of the request that started it, not the engine’s', async () => {
    const engineWide: Promise<unknown>[] = []
    const { engine, now } = setup({ defer: (work) => void engineWide.push(work) })
    await engine.open(waiting('r7', now()), [])
    await engine.open({ ...waiting('r8', now()), toolId: 'wait-for-release', status: 'running', background: true, attempts: 0, approvalId: undefined }, [], {
      defer: (work) => void engineWide.push(work),
    })
    engineWide.length = 0
    // Two requests, one engine: each binds its own defer (runHostForCall, as the KV host does).
    const first: Promise<unknown>[] = []
    const second: Promise<unknown>[] = []
    const segment = await runHostForCall(engine, { defer: (work) => void first.push(work) }).approve('r7', { principal: 'p' })
    expect(first).toEqual([segment.settled])
    await drain(segment)
    await runHostForCall(engine, { defer: (work) => void second.push(work) }).cancel('r8', { principal: 'p' })
    expect(second).toEqual([])
    // A call that names none falls back to the engine's.
    await engine.open({ ...waiting('r9', now()), toolId: 'approved-then-waits' }, [])
    const unbound = await engine.approve('r9', { principal: 'p' })
    expect(engineWide).toEqual([unbound.settled])
    await engine.cancel('r9', { principal: 'p' })
  })
})
