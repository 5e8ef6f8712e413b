// Background tools: the call answers 202 running at once, the tool runs in the run's Durable
// Object (alarm), with timeoutMs and maxRetries; cancellation aborts the attempt.
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { createTestClient } from 'toolroute/testing'
import { as, counter, errorOf, getRun, liveSse, runAction, runEvents, runObject, sequenced, start, uniqueKey } from './run-client.ts'

type RunBody = { status: string; output?: unknown; error?: { code: string; message: string } }
const runOf = async (runId: string) => (await (await getRun(runId, { auth: 'alice' })).json()) as RunBody
// Settled by running the run object's alarms (toolroute/testing), never by polling.
const alice = createTestClient({ headers: as('alice') })
const settledRun = (runId: string) => alice.settle(runId) as Promise<RunBody>
const openGate = (key: string) => counter(`${key}:gate`).increment()

describe('background runs', () => {
  it('the call answers 202 running while the tool is still at work, then the run completes in its object', async () => {
    const key = uniqueKey('gated')
    const response = await start('gated-background', { key, steps: 1 }, { auth: 'alice' })
    expect(response).toEqual({ runId: response.runId, toolCallId: expect.any(String), status: 'running' })
    // The tool cannot finish before the gate opens: the 202 did not wait for it.
    expect(await runOf(response.runId)).toMatchObject({ status: 'running' })
    expect(await counter(key).count()).toBe(0)
    await openGate(key)
    expect(await settledRun(response.runId)).toMatchObject({ status: 'completed', output: { steps: 1 } })
    expect(await counter(key).count()).toBe(1)
  })

  it('generate-report: status and output at GET /runs/:runId, its log in the events', async () => {
    const { runId } = await start('generate-report', { month: '2026-01', delayMs: 10 }, { auth: 'alice' })
    expect(await settledRun(runId)).toMatchObject({ status: 'completed', output: { month: '2026-01', rows: 31 } })
    const { events } = await readSse(await runEvents(runId, { auth: 'alice' }))
    expect(events.find((event) => event.type === 'data-tool-log')).toMatchObject({ data: { level: 'info', message: 'report started' } })
    expect(typesOf(events).slice(-2)).toEqual(['tool-output-available', 'finish'])
  })

  it('maxRetries: a tool that fails twice succeeds on its third attempt, each retry logged', async () => {
    const key = uniqueKey('flaky')
    const { runId } = await start('flaky-background', { key, failures: 2 }, { auth: 'alice' })
    expect(await settledRun(runId)).toMatchObject({ status: 'completed', output: { attempt: 3 } })
    expect(await counter(key).count()).toBe(3)
    const { events } = await readSse(await runEvents(runId, { auth: 'alice' }))
    const retries = events.filter((event) => event.type === 'data-tool-log' && event.data.level === 'warn')
    expect(retries.map((event) => (event.type === 'data-tool-log' ? event.data.message : ''))).toEqual([
      'Attempt 1 failed: attempt 1 failed; retrying',
      'Attempt 2 failed: attempt 2 failed; retrying',
    ])
    expect(typesOf(events).filter((type) => type === 'tool-output-error')).toHaveLength(2)
    expect(typesOf(events).filter((type) => type === 'finish')).toHaveLength(1)
  })

  it('maxRetries exhausted: the run fails with the last error after 1 + maxRetries attempts', async () => {
    const key = uniqueKey('flaky-fail')
    const { runId } = await start('flaky-background', { key, failures: 10 }, { auth: 'alice' })
    expect(await settledRun(runId)).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'attempt 3 failed' } })
    expect(await counter(key).count()).toBe(3)
    const { events } = await readSse(await runEvents(runId, { auth: 'alice' }))
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'error' })
  })

  it('timeoutMs aborts each attempt; after its retries the run fails', async () => {
    const key = uniqueKey('timeout')
    const { runId } = await start('timeout-background', { key }, { auth: 'alice' })
    const run = await settledRun(runId)
    expect(run).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED' } })
    expect(run.error!.message).toMatch(/timeout|timed out/i)
    expect(await counter(key).count()).toBe(2)
  })

  it('cancel aborts a running attempt: the tool stops, the run is cancelled, nothing follows its finish', async () => {
    const key = uniqueKey('cancel-running')
    const { runId, toolCallId } = await start('gated-background', { key, steps: 2 }, { auth: 'alice' })
    // Follow the run live until its attempt is under way (its first log arrives).
    const following = liveSse(await runEvents(runId, { auth: 'alice' }))
    while (true) {
      const message = await following.next()
      if (!message || message.data.includes('"data-tool-log"')) break
    }
    await following.stop()
    const cancelled = await runAction(runId, 'cancel', undefined, { auth: 'alice' })
    expect(cancelled.status).toBe(200)
    expect(await cancelled.json()).toEqual({ runId, toolCallId, status: 'cancelled' })
    // Opening the gates now lets nothing through: the attempt was aborted.
    await openGate(key)
    await openGate(key)
    const { entries, done } = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw' }))
    expect(done).toBe(true)
    expect(entries.slice(-2).map((entry) => entry.event)).toEqual([
      { type: 'tool-output-error', toolCallId, errorText: 'The run was cancelled' },
      { type: 'finish', finishReason: 'other' },
    ])
    expect(await runOf(runId)).toMatchObject({ status: 'cancelled' })
    // Run the object's alarm (retention is far off): still cancelled, never executed to the end.
    await runDurableObjectAlarm(runObject(runId))
    expect(await counter(key).count()).toBe(0)
    const after = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw' }))
    expect(after.entries).toEqual(entries)
    expect(await errorOf(await runAction(runId, 'cancel', undefined, { auth: 'alice' }))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
  })

  it('an attempt cut short by a restart is retried from the object’s alarm', async () => {
    const key = uniqueKey('interrupted')
    const { runId } = await start('flaky-background', { key, failures: 0 }, { auth: 'alice' })
    await settledRun(runId)
    // Simulate an object that died mid-attempt: the record says running with one attempt used.
    const stub = runObject(runId)
    await runInDurableObject(stub, async (_instance, state) => {
      state.storage.sql.exec(`UPDATE run SET record = json_set(record, '$.status', 'running', '$.attempts', 1, '$.output', NULL)`)
      await state.storage.setAlarm(Date.now() + 60_000)
    })
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    expect(await settledRun(runId)).toMatchObject({ status: 'completed', output: { attempt: 2 } })
    const attempts = await runInDurableObject(stub, (_instance, state) =>
      JSON.parse(state.storage.sql.exec<{ record: string }>('SELECT record FROM run').one().record).attempts as number,
    )
    expect(attempts).toBe(2)
  })

  it('a run whose last allowed attempt was cut short fails as interrupted', async () => {
    const key = uniqueKey('interrupted-last')
    const { runId } = await start('flaky-background', { key, failures: 0 }, { auth: 'alice' })
    await settledRun(runId)
    const stub = runObject(runId)
    // flaky-background allows 3 attempts; all 3 used, the last one never finished.
    await runInDurableObject(stub, async (_instance, state) => {
      state.storage.sql.exec(`UPDATE run SET record = json_set(record, '$.status', 'running', '$.attempts', 3, '$.output', NULL)`)
      await state.storage.setAlarm(Date.now() + 60_000)
    })
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    expect(await runOf(runId)).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'The run was interrupted after 3 attempt(s)' } })
    expect(await counter(key).count()).toBe(1)
  })
})
