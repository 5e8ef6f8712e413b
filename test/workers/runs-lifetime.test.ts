// Who may see a run, how long it lives: ownership (RUN_NOT_FOUND), state conflicts, expiry
// (RUN_EXPIRED, by request and by alarm), cancellation of waiting runs, the object's single
// alarm, and deletion after retention.
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { typesOf } from '../fixtures/read-sse.ts'
import { call, errorOf, getRun, runAction, runEvents, runObject, sequenced, start } from './run-client.ts'

const dayMs = 24 * 60 * 60 * 1000

/** Rewrites a field of the stored record, as time passing would. */
function rewrite(runId: string, field: 'expiresAt' | 'updatedAt', value: string): Promise<void> {
  return runInDurableObject(runObject(runId), (_instance, state) => {
    state.storage.sql.exec(`UPDATE run SET record = json_set(record, '$.${field}', ?)`, value)
  })
}

const alarmOf = (runId: string) => runInDurableObject(runObject(runId), (_instance, state) => state.storage.getAlarm())
const storedRows = (runId: string) =>
  runInDurableObject(runObject(runId), (_instance, state) => ({
    runs: state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM run').one().n,
    events: state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM event').one().n,
  }))

const actions = [
  (runId: string, auth?: string) => getRun(runId, { ...(auth ? { auth } : {}) }),
  (runId: string, auth?: string) => runEvents(runId, { ...(auth ? { auth } : {}) }),
  (runId: string, auth?: string) => runAction(runId, 'approve', undefined, { ...(auth ? { auth } : {}) }),
  (runId: string, auth?: string) => runAction(runId, 'decline', { reason: 'x' }, { ...(auth ? { auth } : {}) }),
  (runId: string, auth?: string) => runAction(runId, 'resume', { resumeData: { seat: '1A' } }, { ...(auth ? { auth } : {}) }),
  (runId: string, auth?: string) => runAction(runId, 'cancel', undefined, { ...(auth ? { auth } : {}) }),
]

describe('ownership', () => {
  it('another principal, or none, cannot read, follow, approve, decline, resume or cancel a run', async () => {
    const waiting = await start('delete-file', { path: '/mine' }, { auth: 'alice' })
    const suspended = await start('book-flight', { from: 'CDG', to: 'JFK' }, { auth: 'alice' })
    for (const runId of [waiting.runId, suspended.runId]) {
      for (const act of actions) {
        for (const intruder of ['mallory', undefined]) {
          const error = await errorOf(await act(runId, intruder))
          expect(error).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
          // The same answer as for a run that does not exist: no existence leak.
          expect(error.message).toBe(`Run ${runId} not found`)
        }
      }
    }
    expect(await (await getRun(waiting.runId, { auth: 'alice' })).json()).toMatchObject({ status: 'approval-required' })
    expect(await (await getRun(suspended.runId, { auth: 'alice' })).json()).toMatchObject({ status: 'suspended' })
    expect((await runAction(waiting.runId, 'approve', undefined, { auth: 'alice' })).status).toBe(200)
    expect((await runAction(suspended.runId, 'resume', { resumeData: { seat: '2B' } }, { auth: 'alice' })).status).toBe(200)
  })

  it('a run created without credentials answers whoever holds its (unguessable) id', async () => {
    const { runId } = await start('delete-file', { path: '/anon' })
    expect(runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect((await getRun(runId)).status).toBe(200)
    expect((await runAction(runId, 'approve')).status).toBe(200)
  })

  it('unknown and malformed run ids are RUN_NOT_FOUND on every route', async () => {
    for (const runId of [crypto.randomUUID(), 'not-a-run', 'a'.repeat(300), '%00', crypto.randomUUID().toUpperCase()]) {
      for (const act of actions) expect(await errorOf(await act(runId, 'alice'))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
    }
  })

  it('a stateless call is not stored: its x-run-id is RUN_NOT_FOUND', async () => {
    const response = await call('weather-tool', { location: 'Oslo' }, { auth: 'alice' })
    expect(response.status).toBe(200)
    const runId = response.headers.get('x-run-id')!
    expect(await errorOf(await getRun(runId, { auth: 'alice' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
    expect(await errorOf(await runEvents(runId, { auth: 'alice' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
  })
})

describe('state conflicts', () => {
  it('each action in the wrong state is RUN_STATE_CONFLICT, and changes nothing', async () => {
    const waiting = await start('delete-file', { path: '/c' }, { auth: 'alice' })
    const suspended = await start('book-flight', { from: 'CDG', to: 'JFK' }, { auth: 'alice' })
    const conflict = { status: 409, code: 'RUN_STATE_CONFLICT' }
    expect(await errorOf(await runAction(waiting.runId, 'resume', { resumeData: { seat: '1A' } }, { auth: 'alice' }))).toMatchObject(conflict)
    expect(await errorOf(await runAction(suspended.runId, 'approve', undefined, { auth: 'alice' }))).toMatchObject(conflict)
    expect(await errorOf(await runAction(suspended.runId, 'decline', {}, { auth: 'alice' }))).toMatchObject(conflict)
    expect(await (await getRun(waiting.runId, { auth: 'alice' })).json()).toMatchObject({ status: 'approval-required' })
    expect(await (await getRun(suspended.runId, { auth: 'alice' })).json()).toMatchObject({ status: 'suspended' })
  })
})

describe('cancel', () => {
  it('cancels a run waiting for approval or resumption; it can then be neither approved nor resumed', async () => {
    const waiting = await start('delete-file', { path: '/cancel' }, { auth: 'alice' })
    const response = await runAction(waiting.runId, 'cancel', undefined, { auth: 'alice' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-run-id')).toBe(waiting.runId)
    expect(await response.json()).toEqual({ runId: waiting.runId, toolCallId: waiting.toolCallId, status: 'cancelled' })
    expect(await errorOf(await runAction(waiting.runId, 'approve', undefined, { auth: 'alice' }))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
    const { entries } = await sequenced(await runEvents(waiting.runId, { auth: 'alice' }))
    expect(entries.slice(-3).map((entry) => entry.event)).toEqual([
      { type: 'start', messageMetadata: { runId: waiting.runId, toolCallId: waiting.toolCallId } },
      { type: 'tool-output-error', toolCallId: waiting.toolCallId, errorText: 'The run was cancelled' },
      { type: 'finish', finishReason: 'other' },
    ])

    const suspended = await start('book-flight', { from: 'CDG', to: 'JFK' }, { auth: 'alice' })
    expect(await (await runAction(suspended.runId, 'cancel', undefined, { auth: 'alice' })).json()).toMatchObject({ status: 'cancelled' })
    expect(await errorOf(await runAction(suspended.runId, 'resume', { resumeData: { seat: '1A' } }, { auth: 'alice' }))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
    expect(await (await getRun(suspended.runId, { auth: 'alice' })).json()).toMatchObject({ status: 'cancelled' })
  })

  it('a settled run cannot be cancelled', async () => {
    const { runId } = await start('delete-file', { path: '/done' }, { auth: 'alice' })
    await runAction(runId, 'approve', undefined, { auth: 'alice' })
    expect(await errorOf(await runAction(runId, 'cancel', undefined, { auth: 'alice' }))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
  })
})

describe('expiry', () => {
  it('an approval past its time to live is RUN_EXPIRED for approve, decline and cancel; GET shows it expired', async () => {
    const { runId } = await start('delete-file', { path: '/late' }, { auth: 'alice' })
    await rewrite(runId, 'expiresAt', new Date(Date.now() - 1000).toISOString())
    const expired = { status: 410, code: 'RUN_EXPIRED' }
    expect(await errorOf(await runAction(runId, 'approve', undefined, { auth: 'alice' }))).toMatchObject(expired)
    expect(await errorOf(await runAction(runId, 'decline', {}, { auth: 'alice' }))).toMatchObject(expired)
    expect(await errorOf(await runAction(runId, 'cancel', undefined, { auth: 'alice' }))).toMatchObject(expired)
    const view = (await (await getRun(runId, { auth: 'alice' })).json()) as Record<string, unknown>
    expect(view).toMatchObject({ status: 'expired' })
    expect(view).not.toHaveProperty('approvalId')
    // Expiry changed its state, not its owner.
    expect(await errorOf(await getRun(runId, { auth: 'mallory' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
  })

  it('a suspension past its time to live is RUN_EXPIRED for resume, even with valid data', async () => {
    const { runId } = await start('book-flight', { from: 'CDG', to: 'JFK' }, { auth: 'alice' })
    await rewrite(runId, 'expiresAt', new Date(Date.now() - 1).toISOString())
    expect(await errorOf(await runAction(runId, 'resume', { resumeData: { seat: '1A' } }, { auth: 'alice' }))).toMatchObject({ status: 410, code: 'RUN_EXPIRED' })
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'expired' })
  })

  it('the object’s alarm expires a waiting run at its time to live, then keeps it for retention', async () => {
    const { runId } = await start('delete-file', { path: '/alarm' }, { auth: 'alice' })
    const waiting = (await (await getRun(runId, { auth: 'alice' })).json()) as { expiresAt: string }
    // One alarm, at the expiry (default time to live: 24 h).
    expect(await alarmOf(runId)).toBe(Date.parse(waiting.expiresAt))
    expect(Date.parse(waiting.expiresAt) - Date.now()).toBeGreaterThan(dayMs - 60_000)
    // An alarm before the time changes nothing and re-arms itself.
    expect(await runDurableObjectAlarm(runObject(runId))).toBe(true)
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'approval-required' })
    expect(await alarmOf(runId)).toBe(Date.parse(waiting.expiresAt))

    await rewrite(runId, 'expiresAt', new Date(Date.now() - 1).toISOString())
    expect(await runDurableObjectAlarm(runObject(runId))).toBe(true)
    const expired = (await (await getRun(runId, { auth: 'alice' })).json()) as { status: string; updatedAt: string }
    expect(expired.status).toBe('expired')
    expect(await alarmOf(runId)).toBe(Date.parse(expired.updatedAt) + dayMs)
  })
})

describe('interrupted steps', () => {
  it('a step its object did not live to finish fails from the alarm, not stays running forever', async () => {
    const { runId } = await start('delete-file', { path: '/interrupted' }, { auth: 'alice' })
    await runAction(runId, 'approve', undefined, { auth: 'alice' })
    // What an object that died mid-step leaves behind: the record says running, nothing runs it.
    await runInDurableObject(runObject(runId), (_instance, state) => {
      state.storage.sql.exec(`UPDATE run SET record = json_set(record, '$.status', 'running', '$.output', NULL)`)
    })
    expect(await runDurableObjectAlarm(runObject(runId))).toBe(true)
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({
      status: 'failed',
      error: { code: 'EXECUTION_FAILED', message: 'The run was interrupted before it finished' },
    })
    const { entries } = await sequenced(await runEvents(runId, { auth: 'alice' }))
    expect(entries.slice(-2).map((entry) => entry.event)).toEqual([
      { type: 'tool-output-error', toolCallId: expect.any(String), errorText: 'The run was interrupted before it finished' },
      { type: 'finish', finishReason: 'error' },
    ])
  })
})

describe('retention', () => {
  it('a settled run is deleted by its object’s alarm once retention has passed', async () => {
    const { runId } = await start('delete-file', { path: '/retained' }, { auth: 'alice' })
    await runAction(runId, 'approve', undefined, { auth: 'alice' })
    const done = (await (await getRun(runId, { auth: 'alice' })).json()) as { updatedAt: string }
    // The waiting run's expiry alarm was replaced by the settled run's retention alarm.
    expect(await alarmOf(runId)).toBe(Date.parse(done.updatedAt) + dayMs)
    expect(await runDurableObjectAlarm(runObject(runId))).toBe(true)
    expect((await getRun(runId, { auth: 'alice' })).status).toBe(200)

    await rewrite(runId, 'updatedAt', new Date(Date.now() - dayMs - 1000).toISOString())
    expect(await runDurableObjectAlarm(runObject(runId))).toBe(true)
    expect(await storedRows(runId)).toEqual({ runs: 0, events: 0 })
    expect(await alarmOf(runId)).toBeNull()
    expect(await errorOf(await getRun(runId, { auth: 'alice' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
    expect(await errorOf(await runEvents(runId, { auth: 'alice' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
  })

  it('a run past retention is gone even if its alarm has not run yet', async () => {
    const { runId } = await start('delete-file', { path: '/late-alarm' }, { auth: 'alice' })
    await runAction(runId, 'decline', {}, { auth: 'alice' })
    await rewrite(runId, 'updatedAt', new Date(Date.now() - dayMs - 1000).toISOString())
    expect(await errorOf(await getRun(runId, { auth: 'alice' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
    expect(await storedRows(runId)).toEqual({ runs: 0, events: 0 })
  })

  it('a background run keeps one alarm: attempt, then retention', async () => {
    const { runId } = await start('generate-report', { month: '2026-02', delayMs: 0 }, { auth: 'alice' })
    const { events } = await sequenced(await runEvents(runId, { auth: 'alice' })).then((read) => ({ events: read.entries.map((entry) => entry.event) }))
    expect(typesOf(events).at(-2)).toBe('tool-output-available')
    const done = (await (await getRun(runId, { auth: 'alice' })).json()) as { status: string; updatedAt: string }
    expect(done.status).toBe('completed')
    expect(await alarmOf(runId)).toBe(Date.parse(done.updatedAt) + dayMs)
  })
})
