// Leases (SPEC §12 "Crash recovery") between two engines on one store, as two processes on one
// Deno KV database are: a step's lease is renewed while it executes, a sweep elsewhere leaves a
// held run alone, fails or retries one whose lease lapsed, and the holder's late renewal then
// loses (a compare-and-set on the lease), aborting its step so that nothing of it lands after.
// The clock is the test's; renewals run on fake timers.
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/runtime/create-tool.ts'
import { createRunEngine } from '../../src/runs/create-run-engine.ts'
import { driveRuns } from '../../src/runs/drive-runs.ts'
import type { RunRecord } from '../../src/runs/run-record.ts'
import type { AnyTool } from '../../src/tool/tool-types.ts'
import { createMemoryRunStore } from '../../src/store/memory/memory-run-store.ts'

const gates: (() => void)[] = []
const gated = (signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    gates.push(resolve)
    signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
const approvedStep = createTool({
  id: 'approved-step',
  description: 'Needs approval, then waits at a gate',
  inputSchema: z.object({}),
  requireApproval: true,
  execute: async (_input, { abortSignal }) => (await gated(abortSignal), { done: true }),
})
const retried = createTool({
  id: 'retried',
  description: 'Two attempts at most, each waiting at a gate',
  inputSchema: z.object({}),
  background: { enabled: true, timeoutMs: 60_000, maxRetries: 1 },
  execute: async (_input, { abortSignal }) => (await gated(abortSignal), { done: true }),
})
const tools = new Map<string, AnyTool>([approvedStep, retried].map((tool) => [tool.id, tool as unknown as AnyTool]))

const start = Date.parse('2026-03-01T00:00:00.000Z')
let clock = start
const leaseMs = 3000
const store = createMemoryRunStore()
const scheduled: number[] = []
/** Two processes on one database: each its own engine, none exclusive. */
const [a, b] = [0, 1].map(() => createRunEngine({ drive: driveRuns(tools), store, leaseMs, now: () => clock, schedule: (_runId, at) => void scheduled.push(at) }))

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
  clock = start
  gates.length = 0
})
afterEach(() => void vi.useRealTimers())

const record = (runId: string, toolId: string, status: RunRecord['status'], extra: Partial<RunRecord> = {}): RunRecord => ({
  runId,
  toolId,
  toolCallId: 'call_1',
  principal: 'p',
  status,
  createdAt: new Date(clock).toISOString(),
  updatedAt: new Date(clock).toISOString(),
  input: {},
  requestContext: {},
  ...extra,
})
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
const types = async (runId: string) => (await store.events(runId, 0)).map(({ event }) => event.type)

it('an approved step: held, it survives a sweep elsewhere; its lease renewed; lapsed, it fails as interrupted and the late renewal aborts it', async () => {
  await a!.open(record('step', 'approved-step', 'approval-required', { approvalId: 'ap' }), [{ type: 'start', messageMetadata: { runId: 'step', toolCallId: 'call_1' } }])
  const segment = await a!.approve('step', { principal: 'p' })
  expect((await store.get('step'))!.leaseUntil).toBe(new Date(start + leaseMs).toISOString())
  expect(scheduled.at(-1)).toBe(start + leaseMs)

  clock += 1000
  await b!.sweep('step')
  expect((await store.get('step'))!.status).toBe('running')
  await vi.advanceTimersByTimeAsync(leaseMs / 3)
  expect((await store.get('step'))!.leaseUntil).toBe(new Date(start + 1000 + leaseMs).toISOString())

  // The holder stalls past its lease: another process finds it lapsed.
  clock += leaseMs
  await b!.sweep('step')
  expect(await store.get('step')).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'The run was interrupted before it finished' } })
  await vi.advanceTimersByTimeAsync(leaseMs / 3)
  expect(await segment.settled).toMatchObject({ status: 'failed' })
  gates.forEach((open) => open())
  await settle()
  expect((await types('step')).slice(-3)).toEqual(['tool-approval-response', 'tool-output-error', 'finish'])
})

it('a background attempt whose lease lapsed is taken over by the next, marked in the log; the old attempt loses its lease and stores nothing more', async () => {
  await a!.open(record('bg', 'retried', 'running', { background: true, attempts: 0 }), [{ type: 'start', messageMetadata: { runId: 'bg', toolCallId: 'call_1' } }])
  // The attempt runs to its end in `runBackground`: here it waits at the first gate.
  const first = a!.runBackground('bg')
  await settle()
  expect(await store.get('bg')).toMatchObject({ status: 'running', attempts: 1 })
  await b!.sweep('bg')
  expect(gates).toHaveLength(1)

  clock += leaseMs
  const second = b!.sweep('bg')
  await settle()
  expect(await store.get('bg')).toMatchObject({ status: 'running', attempts: 2 })
  expect(gates).toHaveLength(2)
  // The first attempt's process wakes: its renewal loses, which aborts it.
  await vi.advanceTimersByTimeAsync(leaseMs / 3)
  await first
  gates[1]!()
  await second
  expect(await store.get('bg')).toMatchObject({ status: 'completed', output: { done: true } })
  const log = (await store.events('bg', 0)).map(({ event }) => event)
  expect(log.filter((event) => event.type === 'data-tool-attempt').map((event) => event.data)).toEqual([{ attempt: 1, of: 2 }, { attempt: 2, of: 2 }])
  expect(log.filter((event) => event.type === 'tool-output-available' || event.type === 'tool-output-error')).toHaveLength(1)
  expect(log.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' })
})
