// Faults: every Durable Object aborted (its memory gone, its storage kept: what an eviction or a
// restart does) mid background run, mid approval and mid an approved step. The run then completes
// once (or fails once as interrupted), a second approve is refused, and its replay loses and
// duplicates nothing.
import { abortAllDurableObjects, runDurableObjectAlarm } from 'cloudflare:test'
import { afterAll, describe, expect, it } from 'vitest'
import type { ToolEvent } from 'toolroute'
import { eventually } from './http-client.ts'
import { counter, errorOf, getRun, liveSse, runAction, runEvents, runObject, sequenced, start, uniqueKey } from './run-client.ts'

type RunBody = { status: string; output?: unknown; error?: { code: string; message: string } }
const runOf = async (runId: string) => (await (await getRun(runId, { auth: 'alice' })).json()) as RunBody
const openGate = (key: string) => counter(`${key}:gate`).increment()
const faults = { injected: 0, runs: 0 }

/** The run's whole log, replayed: ids 1…n with no gap or repeat, one `start`…`finish` per segment. */
async function checkedLog(runId: string): Promise<ToolEvent[]> {
  const { entries, done } = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw' }))
  expect(done).toBe(true)
  expect(entries.map((entry) => entry.id)).toEqual(entries.map((_, index) => index + 1))
  const types = entries.map((entry) => entry.event.type)
  expect(types.filter((type) => type === 'start').length).toBe(types.filter((type) => type === 'finish').length)
  expect(types.at(-1)).toBe('finish')
  return entries.map((entry) => entry.event)
}

afterAll(() => {
  console.log(`faults: ${faults.injected} Durable Object aborts injected into ${faults.runs} runs (background, approval, approved step); each run settled once, every replay gap-free`)
})

describe('faults: Durable Objects aborted mid-run', () => {
  it('mid background attempt: its alarm retries it, the run completes once, the log replays whole', async () => {
    const key = uniqueKey('evict-background')
    const { runId } = await start('gated-retry-background', { key }, { auth: 'alice' })
    await eventually(() => counter(`${key}:started`).count(), (count) => count >= 1)
    await abortAllDurableObjects()
    faults.injected += 1
    faults.runs += 1
    expect(await runOf(runId)).toMatchObject({ status: 'running' })
    // The aborted attempt never finishes; the alarm at its lease's end is run now (a run object
    // executing nothing holds nothing, whatever the lease says), and the retry it starts is let through.
    const alarm = runDurableObjectAlarm(runObject(runId))
    await eventually(() => counter(`${key}:started`).count(), (count) => count >= 2)
    await counter(`${key}:gate:2`).increment()
    expect(await alarm).toBe(true)
    const settled = await eventually(() => runOf(runId), (run) => run.status !== 'running')
    expect(settled).toMatchObject({ status: 'completed', output: { completions: 1 } })
    expect(await counter(key).count()).toBe(1)
    const log = await checkedLog(runId)
    expect(log.filter((event) => event.type === 'tool-output-available')).toHaveLength(1)
    expect(log.filter((event) => event.type === 'data-tool-log' && event.data.message === 'attempt started')).toHaveLength(2)
  })

  it('while waiting for approval: the approval survives, the tool runs once, a second approve is refused', async () => {
    const key = uniqueKey('evict-approval')
    const { runId, approvalId } = await start('counted-approval', { key }, { auth: 'alice' })
    await abortAllDurableObjects()
    faults.injected += 1
    faults.runs += 1
    const approvals = await Promise.all([1, 2, 3].map(() => runAction(runId, 'approve', { approvalId }, { auth: 'alice' })))
    expect(approvals.map((response) => response.status).sort()).toEqual([200, 409, 409])
    await Promise.all(approvals.map((response) => response.body?.cancel()))
    await abortAllDurableObjects()
    faults.injected += 1
    expect(await errorOf(await runAction(runId, 'approve', { approvalId }, { auth: 'alice' }))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
    expect(await runOf(runId)).toMatchObject({ status: 'completed', output: { executions: 1 } })
    expect(await counter(key).count()).toBe(1)
    const log = await checkedLog(runId)
    expect(log.filter((event) => (event.type as string) === 'data-tool-approval-response')).toHaveLength(1)
  })

  it('mid an approved step: the step is lost, its alarm fails the run once as interrupted, nothing runs twice', async () => {
    const key = uniqueKey('evict-step')
    const { runId, approvalId } = await start('gated-approval', { key }, { auth: 'alice' })
    const stream = liveSse(await runAction(runId, 'approve', { approvalId }, { auth: 'alice', sse: true }))
    while ((await stream.next())?.data.includes('waiting at the gate') === false);
    await abortAllDurableObjects()
    faults.injected += 1
    faults.runs += 1
    await stream.stop().catch(() => {})
    await openGate(key)
    expect(await runDurableObjectAlarm(runObject(runId))).toBe(true)
    const settled = await eventually(() => runOf(runId), (run) => run.status !== 'running')
    expect(settled).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'The run was interrupted before it finished' } })
    expect(await counter(key).count()).toBe(0)
    expect(await errorOf(await runAction(runId, 'approve', { approvalId }, { auth: 'alice' }))).toMatchObject({ status: 409 })
    await checkedLog(runId)
  })
})
