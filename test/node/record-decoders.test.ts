// Stored runs and Idempotency-Key records are decoded by hand (no Zod in a Worker that does not need
// it): a record this code cannot read throws, one it can comes back with only the fields it knows.
import { describe, expect, it } from 'vitest'
import { decodeIdempotencyRecord } from '../../src/idempotency/idempotency-record.ts'
import { decodeRunRecord } from '../../src/runs/run-record.ts'

const run = {
  runId: 'run_1',
  toolId: 'book-flight',
  toolCallId: 'call_1',
  principal: null,
  status: 'failed',
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:01.000Z',
  input: { to: 'LIS' },
  requestContext: {},
  error: { code: 'RESUME_VALIDATION_FAILED', message: 'bad seat', issues: [{ path: ['seat', 0], message: 'Invalid' }] },
  attempts: 1,
}

describe('decodeRunRecord', () => {
  it('gives back a stored run as it was, without the fields it does not know', () => {
    expect(decodeRunRecord(run)).toEqual(run)
    const stored = { ...run, later: 'a field of a newer version', error: { ...run.error, extra: 1, issues: [{ path: ['seat'], message: 'Invalid', code: 'x' }] } }
    expect(decodeRunRecord(stored)).toEqual({ ...run, error: { ...run.error, issues: [{ path: ['seat'], message: 'Invalid' }] } })
    expect(decodeRunRecord({ ...run, principal: 'alice', input: null })).toMatchObject({ principal: 'alice', input: null })
  })

  it.each([
    ['not an object', ['a run']],
    ['an unknown status', { ...run, status: 'paused' }],
    ['a missing id', { ...run, runId: undefined }],
    ['a numeric principal', { ...run, principal: 7 }],
    ['a request context that is an array', { ...run, requestContext: [] }],
    ['an error without a message', { ...run, error: { code: 'EXECUTION_FAILED' } }],
    ['an issue path holding an object', { ...run, error: { ...run.error, issues: [{ path: [{}], message: 'x' }] } }],
    ['attempts as text', { ...run, attempts: '1' }],
  ])('throws on %s', (_, value) => {
    expect(() => decodeRunRecord(value)).toThrow(/^A stored run cannot be read/)
  })
})

describe('decodeIdempotencyRecord', () => {
  const answer = { status: 200, body: '{"ok":true}', runId: 'run_1', toolCallId: 'call_1' }
  it('gives back pending and done records, without unknown fields', () => {
    expect(decodeIdempotencyRecord({ state: 'pending', fingerprint: 'f', createdAt: 1, extra: true })).toEqual({ state: 'pending', fingerprint: 'f', createdAt: 1 })
    expect(decodeIdempotencyRecord({ state: 'done', fingerprint: 'f', createdAt: 1, answer: { ...answer, extra: 1 } })).toEqual({ state: 'done', fingerprint: 'f', createdAt: 1, answer })
  })

  it("keeps a done answer's trace id (a replay's x-trace-id), dropping one that is not a string", () => {
    const traced = { ...answer, traceId: '0af7651916cd43dd8448eb211c80319c' }
    expect(decodeIdempotencyRecord({ state: 'done', fingerprint: 'f', createdAt: 1, answer: traced })).toStrictEqual({ state: 'done', fingerprint: 'f', createdAt: 1, answer: traced })
    expect(decodeIdempotencyRecord({ state: 'done', fingerprint: 'f', createdAt: 1, answer: { ...answer, traceId: 7 } })).toStrictEqual({ state: 'done', fingerprint: 'f', createdAt: 1, answer })
  })

  it.each([
    ['an unknown state', { state: 'started', fingerprint: 'f', createdAt: 1 }],
    ['a done record without its answer', { state: 'done', fingerprint: 'f', createdAt: 1 }],
    ['a fractional status', { state: 'done', fingerprint: 'f', createdAt: 1, answer: { ...answer, status: 200.5 } }],
    ['a missing fingerprint', { state: 'pending', createdAt: 1 }],
    ['null', null],
  ])('throws on %s', (_, value) => {
    expect(() => decodeIdempotencyRecord(value)).toThrow('A stored Idempotency-Key record cannot be read')
  })
})
