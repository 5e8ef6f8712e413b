// The run engine's pure parts, without a store: the transitions of SPEC §4 (and their refusals),
// who may see a run, the lifetime policy, and the input events stored as references.
import { describe, expect, it } from 'vitest'
import { ToolrouteError } from '../../src/errors/toolroute-error.ts'
import type { SequencedEvent, ToolEvent } from '../../src/protocol/tool-event.ts'
import { authorizeRun } from '../../src/runs/authorize-run.ts'
import { createRunLifetime } from '../../src/runs/run-lifetime.ts'
import type { RunRecord } from '../../src/runs/run-record.ts'
import type { RunStatus } from '../../src/protocol/call-result.ts'
import { transitionOf, type RunAction, type RunTransition } from '../../src/runs/run-transitions.ts'
import { packInputEvents, unpackInputEvents } from '../../src/runs/stored-input-events.ts'

const at = Date.parse('2026-03-01T00:00:00.000Z')
const run = (status: RunStatus, fields: Partial<RunRecord> = {}): RunRecord => ({
  runId: 'r1',
  toolId: 'delete-file',
  toolCallId: 'call_1',
  principal: 'alice',
  status,
  createdAt: new Date(at).toISOString(),
  updatedAt: new Date(at).toISOString(),
  input: { path: '/tmp/a' },
  requestContext: {},
  approvalId: 'approval_1',
  ...fields,
})
const refusal = (transition: RunTransition) => {
  if (transition.ok) throw new Error(`expected a refusal, got ${JSON.stringify(transition)}`)
  expect(ToolrouteError.isInstance(transition.error)).toBe(true)
  return { code: transition.error.code, message: transition.error.message }
}
const allowed = (transition: RunTransition) => {
  if (!transition.ok) throw transition.error
  return transition
}

describe('transitionOf: the state machine, pure', () => {
  it('approve: approval-required → running, with start and tool-approval-response', () => {
    const decided = allowed(transitionOf(run('approval-required'), { type: 'approve' }, at))
    expect(decided.from).toEqual(['approval-required'])
    expect(decided.patch).toEqual({ status: 'running' })
    expect(decided.events).toEqual([
      { type: 'start', messageMetadata: { runId: 'r1', toolCallId: 'call_1' } },
      { type: 'tool-approval-response', approvalId: 'approval_1', approved: true },
    ])
    // The approval's own id is accepted too.
    expect(transitionOf(run('approval-required'), { type: 'approve', approvalId: 'approval_1' }, at).ok).toBe(true)
  })

  it('approve refuses another approvalId, and any state but approval-required', () => {
    expect(refusal(transitionOf(run('approval-required'), { type: 'approve', approvalId: 'approval_2' }, at))).toEqual({
      code: 'RUN_STATE_CONFLICT',
      message: 'Approval approval_2 does not belong to run r1',
    })
    for (const status of ['running', 'suspended', 'completed', 'failed', 'declined', 'cancelled'] as const) {
      expect(refusal(transitionOf(run(status), { type: 'approve' }, at))).toEqual({
        code: 'RUN_STATE_CONFLICT',
        message: `Run r1 is ${status}, not approval-required; it cannot be approved`,
      })
    }
    expect(refusal(transitionOf(run('expired'), { type: 'approve' }, at))).toEqual({ code: 'RUN_EXPIRED', message: 'Run r1 expired before it was approved' })
  })

  it('decline: approval-required → declined, its reason stored and sent; no reason, no field', () => {
    const decided = allowed(transitionOf(run('approval-required'), { type: 'decline', reason: 'no' }, at))
    expect(decided.patch).toEqual({ status: 'declined', reason: 'no' })
    expect(decided.events.map((event) => event.type)).toEqual(['start', 'tool-approval-response', 'tool-output-denied', 'finish'])
    expect(decided.events[1]).toEqual({ type: 'tool-approval-response', approvalId: 'approval_1', approved: false, reason: 'no' })
    const bare = allowed(transitionOf(run('approval-required'), { type: 'decline' }, at))
    expect(bare.patch).toEqual({ status: 'declined' })
    expect(bare.events[1]).toEqual({ type: 'tool-approval-response', approvalId: 'approval_1', approved: false })
    expect(refusal(transitionOf(run('suspended'), { type: 'decline' }, at)).code).toBe('RUN_STATE_CONFLICT')
  })

  it('resume: suspended → running with data-tool-resumed; a run not suspended is refused', () => {
    const decided = allowed(transitionOf(run('suspended', { suspendPayload: { q: 1 } }), { type: 'resume', resumeData: { ok: true } }, at))
    expect(decided).toMatchObject({ from: ['suspended'], patch: { status: 'running' } })
    expect(decided.events[1]).toEqual({ type: 'data-tool-resumed', data: { runId: 'r1', toolCallId: 'call_1', resumeData: { ok: true } } })
    expect(refusal(transitionOf(run('approval-required'), { type: 'resume', resumeData: {} }, at))).toEqual({
      code: 'RUN_STATE_CONFLICT',
      message: 'Run r1 is approval-required, not suspended; it cannot be resumed',
    })
    expect(refusal(transitionOf(run('completed'), { type: 'resume', resumeData: {} }, at)).code).toBe('RUN_STATE_CONFLICT')
    expect(refusal(transitionOf(run('expired'), { type: 'resume', resumeData: {} }, at)).code).toBe('RUN_EXPIRED')
  })

  it('cancel: a waiting run opens a stream of its own; a running one continues its stream; a settled one is refused', () => {
    const waiting = allowed(transitionOf(run('suspended'), { type: 'cancel' }, at))
    expect(waiting.from).toEqual(['running', 'approval-required', 'suspended'])
    expect(waiting.events.map((event) => event.type)).toEqual(['start', 'tool-output-error', 'finish'])
    const running = allowed(transitionOf(run('running'), { type: 'cancel' }, at))
    expect(running.events).toEqual([
      { type: 'tool-output-error', toolCallId: 'call_1', errorText: 'The run was cancelled' },
      { type: 'finish', finishReason: 'other' },
    ])
    expect(refusal(transitionOf(run('completed'), { type: 'cancel' }, at)).message).toBe('Run r1 is completed, not running; it cannot be cancelled')
    expect(refusal(transitionOf(run('expired'), { type: 'cancel' }, at)).code).toBe('RUN_EXPIRED')
  })

  it('settle: each outcome its state and its finish, from running only', () => {
    const completed = allowed(transitionOf(run('running', { suspendPayload: 'old' }), { type: 'settle', outcome: { status: 'completed', output: 1, modelOutput: { type: 'json', value: 1 } } }, at))
    expect(completed.patch).toEqual({ status: 'completed', output: 1, modelOutput: { type: 'json', value: 1 }, suspendPayload: undefined })
    expect(completed.events).toEqual([{ type: 'finish', finishReason: 'stop' }])
    const suspended = allowed(transitionOf(run('running'), { type: 'settle', outcome: { status: 'suspended', suspendPayload: { q: 1 } } }, at))
    expect(suspended.patch).toEqual({ status: 'suspended', suspendPayload: { q: 1 } })
    expect(suspended.events).toEqual([{ type: 'finish', finishReason: 'other' }])
    const failed = allowed(transitionOf(run('running'), { type: 'settle', outcome: { status: 'failed', error: new ToolrouteError('EXECUTION_FAILED', 'boom') } }, at))
    expect(failed.patch).toEqual({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'boom' } })
    expect(failed.events).toEqual([{ type: 'finish', finishReason: 'error' }])
    // A run cancelled while its step ran is not settled again.
    expect(transitionOf(run('cancelled'), { type: 'settle', outcome: { status: 'completed', output: 1 } } as RunAction, at).ok).toBe(false)
  })

  it('interrupt, expire, background attempts and retries', () => {
    const interrupted = allowed(transitionOf(run('running'), { type: 'interrupt', message: 'gone' }, at))
    expect(interrupted.patch).toEqual({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'gone' } })
    expect(interrupted.events).toEqual([{ type: 'tool-output-error', toolCallId: 'call_1', errorText: 'gone' }, { type: 'finish', finishReason: 'error' }])
    expect(allowed(transitionOf(run('approval-required'), { type: 'expire' }, at))).toMatchObject({ from: ['approval-required', 'suspended'], patch: { status: 'expired' }, events: [] })
    expect(transitionOf(run('completed'), { type: 'expire' }, at).ok).toBe(false)
    const attempt = allowed(transitionOf(run('running', { background: true, attempts: 2 }), { type: 'start-attempt', of: 4 }, at))
    expect(attempt).toMatchObject({ patch: { attempts: 3 }, events: [{ type: 'data-tool-attempt', data: { attempt: 3, of: 4 } }] })
    expect(transitionOf(run('running'), { type: 'start-attempt', of: 1 }, at).ok).toBe(false)
    const retry = allowed(transitionOf(run('running', { background: true }), { type: 'retry', message: 'again' }, at))
    expect(retry.events).toEqual([{ type: 'data-tool-log', data: { level: 'warn', message: 'again', time: '2026-03-01T00:00:00.000Z' } }])
    // A retry gives the lease up: the next attempt need not wait for it to run out.
    expect(retry.patch).toEqual({ leaseUntil: undefined })
    expect(allowed(transitionOf(run('approval-required', { background: true }), { type: 'approve' }, at)).patch).toEqual({ status: 'running', leaseUntil: undefined })
    expect(allowed(transitionOf(run('running'), { type: 'renew' }, at))).toMatchObject({ from: ['running'], patch: {}, events: [] })
    expect(transitionOf(run('failed'), { type: 'renew' }, at).ok).toBe(false)
    expect(transitionOf(run('cancelled'), { type: 'retry', message: 'again' }, at).ok).toBe(false)
  })

  it('deciding touches nothing: the run passed in is unchanged', () => {
    const record = run('approval-required')
    const copy = structuredClone(record)
    transitionOf(record, { type: 'approve' }, at)
    transitionOf(record, { type: 'decline', reason: 'x' }, at)
    expect(record).toEqual(copy)
  })
})

describe('authorizeRun', () => {
  it('answers the owner, and anyone for a run without a principal; another principal and a missing run are RUN_NOT_FOUND', () => {
    expect(authorizeRun(run('running'), 'r1', { principal: 'alice' })).toMatchObject({ ok: true })
    expect(authorizeRun(run('running', { principal: null }), 'r1', { principal: 'bob' })).toMatchObject({ ok: true })
    for (const [record, caller] of [
      [run('running'), { principal: 'bob' }],
      [run('running'), { principal: null }],
      [undefined, { principal: 'alice' }],
    ] as const) {
      const answer = authorizeRun(record, 'r1', caller)
      expect(answer.ok).toBe(false)
      if (!answer.ok) expect([answer.error.code, answer.error.message]).toEqual(['RUN_NOT_FOUND', 'Run r1 not found'])
    }
  })
})

describe('run lifetime', () => {
  const lifetime = createRunLifetime({ ttlMs: 60_000, retentionMs: 120_000 })
  it('stamps the time, and a waiting state its deadline; leaving a wait drops it', () => {
    expect(lifetime.stamp({ status: 'suspended' }, at)).toEqual({ status: 'suspended', updatedAt: '2026-03-01T00:00:00.000Z', expiresAt: '2026-03-01T00:01:00.000Z' })
    expect(lifetime.stamp({ status: 'running' }, at)).toEqual({ status: 'running', updatedAt: '2026-03-01T00:00:00.000Z', expiresAt: undefined, leaseUntil: '2026-03-01T00:00:30.000Z' })
    expect(lifetime.stamp({ attempts: 1 }, at)).toEqual({ attempts: 1, updatedAt: '2026-03-01T00:00:00.000Z' })
    expect(lifetime.opened(run('approval-required'), at).expiresAt).toBe('2026-03-01T00:01:00.000Z')
    expect(lifetime.opened(run('running'), at).expiresAt).toBeUndefined()
  })
  it('expiry, retention and the one sweep time of each state', () => {
    const waiting = lifetime.opened(run('approval-required'), at)
    expect([lifetime.isExpired(waiting, at + 59_999), lifetime.isExpired(waiting, at + 60_000)]).toEqual([false, true])
    expect(lifetime.sweepAt(waiting)).toBe(at + 60_000)
    const done = run('completed')
    expect([lifetime.isGone(done, at + 119_999), lifetime.isGone(done, at + 120_000)]).toEqual([false, true])
    expect(lifetime.sweepAt(done)).toBe(at + 120_000)
    expect(lifetime.sweepAt(run('running'))).toBeUndefined()
    expect(lifetime.isGone(run('approval-required'), at + 10 ** 9)).toBe(false)
  })
  it('a running run holds a lease each of its transitions renews; its sweep is at the lease\'s end', () => {
    const leased = createRunLifetime({ leaseMs: 30_000 })
    const held = { ...run('running'), ...leased.stamp({ status: 'running' }, at) }
    expect(held.leaseUntil).toBe('2026-03-01T00:00:30.000Z')
    expect(leased.stamp({}, at + 10_000, 'running')).toMatchObject({ leaseUntil: '2026-03-01T00:00:40.000Z' })
    expect(leased.stamp({ status: 'failed' }, at)).toMatchObject({ leaseUntil: undefined })
    expect(leased.stamp({ leaseUntil: undefined }, at, 'running')).toEqual({ leaseUntil: undefined, updatedAt: '2026-03-01T00:00:00.000Z' })
    expect(leased.sweepAt(held)).toBe(at + 30_000)
    expect([leased.isLapsed(held, at + 29_999), leased.isLapsed(held, at + 30_000)]).toEqual([false, true])
    expect(leased.isLapsed(run('running'), at)).toBe(true)
    expect(leased.isLapsed({ ...held, status: 'completed' }, at + 10 ** 9)).toBe(false)
  })
})

describe('input events stored once', () => {
  const input = { path: `/${'x'.repeat(4095)}` }
  const text = JSON.stringify(input)
  const firstStep = (deltas: string[], available: unknown = input): ToolEvent[] => [
    { type: 'start', messageMetadata: { runId: 'r1', toolCallId: 'call_1' } },
    { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'delete-file' },
    ...deltas.map((inputTextDelta): ToolEvent => ({ type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta })),
    { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'delete-file', input: available },
    { type: 'tool-approval-request', approvalId: 'approval_1', toolCallId: 'call_1' },
    { type: 'finish', finishReason: 'other' },
  ]
  const numbered = (events: ToolEvent[]): SequencedEvent[] => events.map((event, index) => ({ seq: index + 1, event }))
  const stored = (record: RunRecord, events: ToolEvent[]) => numbered(JSON.parse(JSON.stringify(packInputEvents(record, events))) as ToolEvent[])

  it('a body that is the input as JSON, in one chunk or many, is stored as references and read back byte for byte', () => {
    const record = run('approval-required', { input })
    for (const deltas of [[text], [text.slice(0, 7), text.slice(7, 2000), text.slice(2000)]]) {
      const events = firstStep(deltas)
      const packed = stored(record, events)
      expect(JSON.stringify(packed).length).toBeLessThan(1500)
      const replayed = unpackInputEvents(JSON.parse(JSON.stringify(record)) as RunRecord, packed)
      expect(JSON.stringify(replayed)).toBe(JSON.stringify(numbered(events)))
    }
  })

  it('a body with other whitespace, or an input the schema changed, is stored as it came', () => {
    const spaced = firstStep([JSON.stringify(input, null, 2)])
    expect(packInputEvents(run('approval-required', { input }), spaced).filter((event) => event.type === 'tool-input-delta')).toEqual(spaced.filter((event) => event.type === 'tool-input-delta'))
    // The schema added a default: the record holds what execute gets, the events what was sent.
    const sent = { path: '/tmp/a' }
    const events = firstStep([JSON.stringify(sent)], sent)
    const record = run('approval-required', { input: { path: '/tmp/a', force: false } })
    expect(packInputEvents(record, events)).toEqual(events)
    expect(unpackInputEvents(record, numbered(events))).toEqual(numbered(events))
  })

  it('events without references are returned as they are, and another call’s input events are left alone', () => {
    const entries = numbered(firstStep([text]))
    expect(unpackInputEvents(run('approval-required', { input }), entries)).toBe(entries)
    const other = firstStep([text]).map((event) => ('toolCallId' in event ? { ...event, toolCallId: 'call_2' } : event)) as ToolEvent[]
    expect(packInputEvents(run('approval-required', { input }), other)).toEqual(other)
  })
})
