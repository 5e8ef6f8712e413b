// Runs in Workers KV (createKvRunHost) through the same routes, under /kv/ of the test Worker.
// KV is not exactly-once, so these tests check behaviour, not races.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { eventually } from './http-client.ts'
import { call, counter, errorOf, getRun, runAction, runEvents, sequenced, start, uniqueKey } from './run-client.ts'

const kv = { base: '/kv', auth: 'alice' }

describe('runs in Workers KV', () => {
  it('approval: 202, approve, completed; the record and one key per event follow the documented layout', async () => {
    const { runId, approvalId } = await start('delete-file', { path: '/kv' }, kv)
    const keys = (await env.TOOLROUTE_RUNS_KV.list({ prefix: `run:${runId}` })).keys.map((key) => key.name)
    expect(keys).toContain(`run:${runId}`)
    expect(keys.filter((name) => name.startsWith(`run:${runId}:event:`))).toEqual(
      keys.filter((name) => name !== `run:${runId}`).map((_, index) => `run:${runId}:event:${String(index + 1).padStart(10, '0')}`),
    )
    expect(await (await getRun(runId, kv)).json()).toMatchObject({ status: 'approval-required', approvalId })
    const approved = await runAction(runId, 'approve', undefined, kv)
    expect(await approved.json()).toMatchObject({ runId, status: 'completed', output: { deleted: '/kv' } })
    expect(await errorOf(await runAction(runId, 'approve', undefined, kv))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
  })

  it('suspend / resume over SSE, with a rejected resume leaving the run suspended', async () => {
    const { runId } = await start('multi-round', { rounds: 2 }, kv)
    expect(await errorOf(await runAction(runId, 'resume', { resumeData: { answer: '1' } }, kv))).toMatchObject({ status: 400, code: 'RESUME_VALIDATION_FAILED' })
    const second = await readSse(await runAction(runId, 'resume', { resumeData: { answer: 'one' } }, { ...kv, sse: true }))
    expect(typesOf(second.events)).toEqual(['start', 'data-tool-resumed', 'data-tool-suspended', 'finish'])
    const last = await runAction(runId, 'resume', { resumeData: { answer: 'two' } }, kv)
    expect(await last.json()).toMatchObject({ status: 'completed', output: { answers: ['one', 'two'], agentSawResume: true } })
  })

  it('background: 202 running, then completed; the events replay from any cut', async () => {
    const key = uniqueKey('kv-flaky')
    const { runId } = await start('flaky-background', { key, failures: 1 }, kv)
    const done = await eventually(
      async () => (await (await getRun(runId, kv)).json()) as { status: string },
      (run) => run.status !== 'running',
    )
    expect(done).toMatchObject({ status: 'completed', output: { attempt: 2 } })
    expect(await counter(key).count()).toBe(2)
    const full = await sequenced(await runEvents(runId, { ...kv, view: 'raw' }))
    expect(full.entries.map((entry) => entry.id)).toEqual(full.entries.map((_, index) => index + 1))
    for (let cut = 0; cut <= full.entries.length; cut++) {
      const rest = await sequenced(await runEvents(runId, { ...kv, view: 'raw', lastEventId: cut }))
      expect([...full.entries.slice(0, cut), ...rest.entries]).toEqual(full.entries)
    }
  })

  it('a background call over SSE follows the run to its end by polling KV', async () => {
    const key = uniqueKey('kv-follow')
    const response = await call('gated-background', { key, steps: 1 }, { ...kv, sse: true })
    await counter(`${key}:gate`).increment()
    const { events, done } = await readSse(response)
    expect(done).toBe(true)
    expect(typesOf(events).slice(-3)).toEqual(['data-tool-log', 'tool-output-available', 'finish'])
  })

  it('one engine per isolate: a cancel aborts the background attempt another request of the isolate started', async () => {
    const key = uniqueKey('kv-cancel')
    const { runId } = await start('gated-background', { key, steps: 2 }, kv)
    // At its first gate: the attempt runs, in the waitUntil of the request that started it.
    await eventually(
      async () => (await (await getRun(runId, kv)).json()) as { transcript: { type: string }[] },
      (run) => run.transcript.some((event) => event.type === 'data-tool-log'),
    )
    expect(await (await runAction(runId, 'cancel', undefined, kv)).json()).toMatchObject({ status: 'cancelled' })
    // The gates open after the cancel: an attempt that went on would now finish and count.
    await counter(`${key}:gate`).increment()
    await counter(`${key}:gate`).increment()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await counter(key).count()).toBe(0)
    expect(await (await getRun(runId, kv)).json()).toMatchObject({ status: 'cancelled' })
  })

  it('ownership, cancel and decline work the same', async () => {
    const { runId } = await start('delete-file', { path: '/kv-owned' }, kv)
    expect(await errorOf(await getRun(runId, { base: '/kv', auth: 'mallory' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
    expect(await errorOf(await runAction(runId, 'approve', undefined, { base: '/kv', auth: 'mallory' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
    expect(await errorOf(await getRun('not-a-run', kv))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
    expect(await (await runAction(runId, 'cancel', undefined, kv)).json()).toMatchObject({ status: 'cancelled' })
    const other = await start('delete-file', { path: '/kv-declined' }, kv)
    expect(await (await runAction(other.runId, 'decline', { reason: 'no' }, kv)).json()).toMatchObject({ status: 'declined', reason: 'no' })
    // Runs of the Durable Object app are not in KV, and the other way round.
    expect(await errorOf(await getRun(other.runId, { auth: 'alice' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
  })
})
