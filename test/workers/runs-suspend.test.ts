// Suspend / resume through the real Worker and its Durable Objects: validation, several rounds,
// agent.resumeData / agent.suspendPayload, exactly-once resumes and survival of eviction.
import { abortAllDurableObjects } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { call, counter, errorOf, getRun, runAction, runEvents, sequenced, start, uniqueKey } from './run-client.ts'

const seatSchema = { type: 'object', properties: { seat: { type: 'string', pattern: '^\\d{1,2}[A-F]$' } }, required: ['seat'] }

describe('suspend and resume', () => {
  it('answers 202 suspended with the payload and resume schema; a valid resume completes (JSON)', async () => {
    const response = await call('book-flight', { from: 'CDG', to: 'JFK' }, { auth: 'alice' })
    expect(response.status).toBe(202)
    const body = (await response.json()) as Record<string, any>
    expect(body).toMatchObject({ status: 'suspended', suspendPayload: { question: 'Which seat on CDG→JFK?', seats: ['12A', '12B', '14C'] } })
    expect(body.resumeSchema).toMatchObject(seatSchema)

    const waiting = (await (await getRun(body.runId, { auth: 'alice' })).json()) as Record<string, any>
    expect(waiting).toMatchObject({ status: 'suspended', suspendPayload: body.suspendPayload, resumeSchema: seatSchema })

    const resumed = await runAction(body.runId, 'resume', { resumeData: { seat: '12A' } }, { auth: 'alice' })
    expect(resumed.status).toBe(200)
    expect(await resumed.json()).toEqual({
      runId: body.runId,
      toolCallId: body.toolCallId,
      status: 'completed',
      output: { confirmation: 'CDG-JFK-12A', seat: '12A' },
      modelOutput: { type: 'json', value: { confirmation: 'CDG-JFK-12A', seat: '12A' } },
    })
    const done = (await (await getRun(body.runId, { auth: 'alice' })).json()) as Record<string, any>
    expect(done).toMatchObject({ status: 'completed', output: { seat: '12A' } })
    expect(done).not.toHaveProperty('suspendPayload')
    expect(done).not.toHaveProperty('resumeSchema')
    expect(await errorOf(await runAction(body.runId, 'resume', { resumeData: { seat: '12B' } }, { auth: 'alice' }))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
  })

  it('a rejected resume answers RESUME_VALIDATION_FAILED and leaves the run suspended', async () => {
    const key = uniqueKey('bad-resume')
    const { runId, suspendPayload } = await start('counted-suspend', { key }, { auth: 'alice' })
    const bad = await errorOf(await runAction(runId, 'resume', { resumeData: { answer: '' } }, { auth: 'alice' }))
    expect(bad).toMatchObject({ status: 400, code: 'RESUME_VALIDATION_FAILED' })
    expect(bad.issues).toEqual([expect.objectContaining({ path: ['answer'] })])
    const missing = await errorOf(await runAction(runId, 'resume', {}, { auth: 'alice' }))
    expect(missing).toMatchObject({ status: 400, code: 'RESUME_VALIDATION_FAILED' })
    expect(await errorOf(await runAction(runId, 'resume', '{"resumeData":', { auth: 'alice' }))).toMatchObject({ status: 400, code: 'INVALID_JSON' })
    // A content type that is not JSON is refused even on an empty body (SPEC §12: a form always sends one).
    const wrongType = await runAction(runId, 'resume', undefined, { auth: 'alice', headers: { 'content-type': 'text/plain' } })
    expect(await errorOf(wrongType)).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })

    const still = (await (await getRun(runId, { auth: 'alice' })).json()) as Record<string, any>
    expect(still).toMatchObject({ status: 'suspended', suspendPayload })
    expect(await counter(key).count()).toBe(0)
    // Nothing of the rejected attempts reached the log.
    const { events } = await readSse(await runEvents(runId, { auth: 'alice' }))
    expect(typesOf(events)).not.toContain('data-tool-resumed')

    const good = await runAction(runId, 'resume', { resumeData: { answer: 'yes' } }, { auth: 'alice' })
    expect(await good.json()).toMatchObject({ status: 'completed', output: { answer: 'yes', executions: 1 } })
  })

  it('several suspend/resume rounds in one run, with agent.resumeData and agent.suspendPayload on each resume', async () => {
    const { runId, suspendPayload } = await start('multi-round', { rounds: 3 }, { auth: 'alice' })
    expect(suspendPayload).toEqual({ round: 1, answers: [] })

    const second = await runAction(runId, 'resume', { resumeData: { answer: 'red' } }, { auth: 'alice' })
    expect(second.status).toBe(202)
    expect(await second.json()).toMatchObject({ runId, status: 'suspended', suspendPayload: { round: 2, answers: ['red'] }, resumeSchema: expect.any(Object) })

    // A rejected resume mid-way keeps round 2's payload.
    expect(await errorOf(await runAction(runId, 'resume', { resumeData: { answer: 'RED!' } }, { auth: 'alice' }))).toMatchObject({ code: 'RESUME_VALIDATION_FAILED' })
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'suspended', suspendPayload: { round: 2, answers: ['red'] } })

    // Round 3 over SSE: the step's stream ends at the next suspension.
    const third = await readSse(await runAction(runId, 'resume', { resumeData: { answer: 'green' } }, { auth: 'alice', sse: true }))
    expect(third.done).toBe(true)
    expect(typesOf(third.events)).toEqual(['start', 'data-tool-resumed', 'data-tool-suspended', 'finish'])
    expect(third.events[1]).toMatchObject({ data: { runId, resumeData: { answer: 'green' } } })
    expect(third.events[2]).toMatchObject({ data: { runId, suspendPayload: { round: 3, answers: ['red', 'green'] } } })

    const last = await runAction(runId, 'resume', { resumeData: { answer: 'blue' } }, { auth: 'alice' })
    expect(await last.json()).toMatchObject({ status: 'completed', output: { answers: ['red', 'green', 'blue'], agentSawResume: true } })

    const { events } = await readSse(await runEvents(runId, { auth: 'alice' }))
    expect(typesOf(events).filter((type) => type === 'data-tool-suspended')).toHaveLength(3)
    expect(typesOf(events).filter((type) => type === 'data-tool-resumed')).toHaveLength(3)
    expect(typesOf(events).filter((type) => type === 'finish')).toHaveLength(4)
  })

  it('resume over SSE: start, data-tool-resumed, the output, finish', async () => {
    const first = await sequenced(await call('book-flight', { from: 'LHR', to: 'SFO' }, { auth: 'alice', sse: true }))
    expect(typesOf(first.entries.map((entry) => entry.event)).slice(-2)).toEqual(['data-tool-suspended', 'finish'])
    const suspended = first.entries.at(-2)!.event as { data: { runId: string; toolCallId: string; suspendPayload: unknown; resumeSchema: unknown } }
    expect(suspended.data.resumeSchema).toMatchObject(seatSchema)
    const { runId, toolCallId } = suspended.data
    const resumed = await sequenced(await runAction(runId, 'resume', { resumeData: { seat: '14C' } }, { auth: 'alice', sse: true }))
    expect(resumed.done).toBe(true)
    expect(resumed.entries.map((entry) => entry.event)).toEqual([
      { type: 'start', messageMetadata: { runId, toolCallId } },
      { type: 'data-tool-resumed', data: { runId, toolCallId, resumeData: { seat: '14C' } } },
      { type: 'tool-output-available', toolCallId, output: { confirmation: 'LHR-SFO-14C', seat: '14C' } },
      { type: 'finish', finishReason: 'stop' },
    ])
    expect(resumed.entries[0]!.id).toBe(first.entries.at(-1)!.id + 1)
  })

  it('50 concurrent resumes: one execution, 49 × 409', async () => {
    const key = uniqueKey('race-resume')
    const { runId } = await start('counted-suspend', { key }, { auth: 'alice' })
    const responses = await Promise.all(Array.from({ length: 50 }, (_, index) => runAction(runId, 'resume', { resumeData: { answer: `a${index}` } }, { auth: 'alice' })))
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(49)
    for (const response of responses.filter((response) => response.status === 409)) expect((await errorOf(response)).code).toBe('RUN_STATE_CONFLICT')
    expect(await counter(key).count()).toBe(1)
    const { events } = await readSse(await runEvents(runId, { auth: 'alice' }))
    expect(typesOf(events).filter((type) => type === 'tool-output-available')).toHaveLength(1)
    expect(typesOf(events).filter((type) => type === 'data-tool-resumed')).toHaveLength(1)
  })

  it('racing resumes, some invalid: an invalid one never runs the tool, one valid one wins, the rest get 409', async () => {
    const key = uniqueKey('race-mixed')
    const { runId } = await start('counted-suspend', { key }, { auth: 'alice' })
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => runAction(runId, 'resume', { resumeData: { answer: index % 2 ? `ok${index}` : '' } }, { auth: 'alice' })),
    )
    const invalid = responses.filter((_, index) => index % 2 === 0).map((response) => response.status)
    const valid = responses.filter((_, index) => index % 2 === 1).map((response) => response.status)
    // Invalid data is refused for itself (400) while the run waits, or for the run's state (409) after.
    for (const status of invalid) expect([400, 409]).toContain(status)
    expect(valid.filter((status) => status === 200)).toHaveLength(1)
    expect(valid.filter((status) => status === 409)).toHaveLength(9)
    expect(await counter(key).count()).toBe(1)
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'completed', output: { answer: expect.stringMatching(/^ok\d+$/) } })
  })

  it('a waiting run survives the eviction of its Durable Object', async () => {
    const suspended = await start('book-flight', { from: 'NRT', to: 'SYD' }, { auth: 'alice' })
    const waiting = await start('delete-file', { path: '/evicted' }, { auth: 'alice' })
    await abortAllDurableObjects()
    expect(await (await getRun(suspended.runId, { auth: 'alice' })).json()).toMatchObject({ status: 'suspended', suspendPayload: suspended.suspendPayload })
    await abortAllDurableObjects()
    const resumed = await runAction(suspended.runId, 'resume', { resumeData: { seat: '1A' } }, { auth: 'alice' })
    expect(await resumed.json()).toMatchObject({ status: 'completed', output: { confirmation: 'NRT-SYD-1A' } })
    await abortAllDurableObjects()
    const approved = await runAction(waiting.runId, 'approve', { approvalId: waiting.approvalId }, { auth: 'alice' })
    expect(await approved.json()).toMatchObject({ status: 'completed', output: { deleted: '/evicted' } })
    // The log survived too, in one piece.
    const { entries, done } = await sequenced(await runEvents(suspended.runId, { auth: 'alice', view: 'raw' }))
    expect(done).toBe(true)
    expect(entries.map((entry) => entry.id)).toEqual(entries.map((_, index) => index + 1))
    expect(typesOf(entries.map((entry) => entry.event)).slice(-3)).toEqual(['tool-output-available', 'data-tool-model-output', 'finish'])
  })

  it('a tool that suspends with a payload against its suspendSchema fails, and no run waits', async () => {
    const response = await call('bad-suspend-tool', {}, { auth: 'alice' })
    expect(await errorOf(response)).toMatchObject({ status: 500, code: 'SUSPEND_VALIDATION_FAILED' })
    expect(await errorOf(await getRun(response.headers.get('x-run-id')!, { auth: 'alice' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })
  })
})
