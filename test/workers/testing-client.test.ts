// toolroute/testing inside the pool: createTestClient() over the test Worker (SELF), settle() running
// the run object's alarms, runTool in workerd, all against the example tools.
import { describe, expect, it } from 'vitest'
import { createTestClient, runTool } from 'toolroute/testing'
import type { Tools } from '../../.toolroute/tools.ts'
import { deleteFile } from '../../tools/delete-file.ts'
import { runInDurableObject } from 'cloudflare:test'
import { counter, runObject, uniqueKey } from './run-client.ts'

const pooled = createTestClient<Tools>()
// The test Worker serves fixture tools beside tools/: an untyped client calls them.
const fixtures = createTestClient()
const client = createTestClient<Tools>({ headers: { authorization: 'Bearer testing-client' } })

describe('createTestClient', () => {
  it('calls the Worker under test with no options (the pool\'s SELF)', async () => {
    expect(await pooled.call('weather-tool', { location: 'Lisbon' })).toMatchObject({ status: 'completed', output: { location: 'Lisbon' } })
  })

  it('approval: approved once, refused the second time', async () => {
    const started = await pooled.call('delete-file', { path: 'a.txt' })
    expect(started.status).toBe('approval-required')
    expect(await pooled.approve(started.runId)).toMatchObject({ status: 'completed', output: { deleted: 'a.txt' } })
    await expect(pooled.approve(started.runId)).rejects.toMatchObject({ code: 'RUN_STATE_CONFLICT' })
  })

  it('settle: a background run settled by running its alarms, with its retries', async () => {
    const { runId } = await pooled.call('generate-report', { month: '2026-02', delayMs: 0 })
    expect(await pooled.settle(runId)).toMatchObject({ status: 'completed', output: { month: '2026-02', rows: 31 } })
    const key = uniqueKey('settle-flaky')
    const flaky = await fixtures.call('flaky-background', { key, failures: 2 })
    expect(await pooled.settle(flaky.runId)).toMatchObject({ status: 'completed', output: { attempt: 3 } })
    expect(await counter(key).count()).toBe(3)
  })

  it('settle: a failing background run ends failed; a waiting run is answered at once', async () => {
    const key = uniqueKey('settle-fail')
    const failing = await fixtures.call('flaky-background', { key, failures: 10 })
    expect(await pooled.settle(failing.runId)).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED' } })
    const waiting = await pooled.call('book-flight', { from: 'LIS', to: 'SFO' })
    expect(await pooled.settle(waiting.runId)).toMatchObject({ status: 'suspended' })
  })

  it('settle gives up after timeoutMs on a run that cannot settle', async () => {
    const key = uniqueKey('settle-gated')
    const { runId } = await fixtures.call('gated-background', { key, steps: 1 })
    await expect(pooled.settle(runId, { timeoutMs: 300 })).rejects.toThrow(/still running after 300 ms/)
    // The attempt's watchdog alarm (set for after its timeout) is not due: settle left it in place.
    const alarm = await runInDurableObject(runObject(runId), (_instance, state) => state.storage.getAlarm())
    expect(alarm).toBeGreaterThan(Date.now())
    await counter(`${key}:gate`).increment()
    expect(await pooled.settle(runId)).toMatchObject({ status: 'completed' })
  })

  it('sends the client options: a run of another principal is not found', async () => {
    const started = await client.call('delete-file', { path: 'b.txt' })
    await expect(pooled.getRun(started.runId)).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' })
    expect(await client.settle(started.runId)).toMatchObject({ status: 'approval-required' })
  })
})

describe('runTool in workerd', () => {
  it('runs the approval phase without a server', async () => {
    expect(await runTool(deleteFile, { path: 'a.txt' }, { approve: true })).toMatchObject({ status: 'completed', output: { deleted: 'a.txt' } })
  })
})
