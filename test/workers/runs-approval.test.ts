// Approval through the real Worker and its Durable Objects: approve / decline (JSON and SSE),
// requireApproval as a function, and exactly-once execution under racing approvals.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { origin } from './http-client.ts'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { call, counter, errorOf, getRun, liveSse, runAction, runEvents, sequenced, start, uniqueKey } from './run-client.ts'

describe('approval', () => {
  it('an approve with an unknown ?view= is refused before the tool runs; the run still waits', async () => {
    const body = (await (await call('delete-file', { path: '/tmp/view.txt' }, { auth: 'alice' })).json()) as Record<string, string>
    const refused = await SELF.fetch(`${origin}/runs/${body.runId}/approve?view=bogus`, { method: 'POST', headers: { authorization: 'Bearer alice' } })
    expect(await errorOf(refused)).toMatchObject({ status: 400, code: 'INPUT_VALIDATION_FAILED', message: expect.stringContaining('display, raw, transcript') })
    expect(await (await getRun(body.runId!, { auth: 'alice' })).json()).toMatchObject({ status: 'approval-required' })
    expect((await runAction(body.runId!, 'approve', undefined, { auth: 'alice' })).status).toBe(200)
  })

  it('a tool with requireApproval answers 202 approval-required, and runs once approved (JSON)', async () => {
    const response = await call('delete-file', { path: '/tmp/a.txt' }, { auth: 'alice' })
    expect(response.status).toBe(202)
    const body = (await response.json()) as Record<string, string>
    expect(body).toEqual({ runId: expect.any(String), toolCallId: expect.any(String), status: 'approval-required', approvalId: expect.stringMatching(/^approval_/) })
    expect(response.headers.get('x-run-id')).toBe(body.runId)
    expect(response.headers.get('x-tool-call-id')).toBe(body.toolCallId)

    const waiting = (await (await getRun(body.runId!, { auth: 'alice' })).json()) as Record<string, unknown>
    expect(waiting).toMatchObject({ runId: body.runId, toolId: 'delete-file', toolCallId: body.toolCallId, status: 'approval-required', approvalId: body.approvalId })
    expect(Date.parse(waiting.expiresAt as string)).toBeGreaterThan(Date.now())

    const approved = await runAction(body.runId!, 'approve', undefined, { auth: 'alice' })
    expect(approved.status).toBe(200)
    expect(approved.headers.get('x-run-id')).toBe(body.runId)
    expect(await approved.json()).toEqual({
      runId: body.runId,
      toolCallId: body.toolCallId,
      status: 'completed',
      output: { deleted: '/tmp/a.txt' },
      modelOutput: { type: 'json', value: { deleted: '/tmp/a.txt' } },
    })
    const done = (await (await getRun(body.runId!, { auth: 'alice' })).json()) as Record<string, unknown>
    expect(done).toMatchObject({ status: 'completed', output: { deleted: '/tmp/a.txt' } })
    expect(done).not.toHaveProperty('approvalId')
    expect(done).not.toHaveProperty('expiresAt')

    const again = await runAction(body.runId!, 'approve', undefined, { auth: 'alice' })
    expect(await errorOf(again)).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
  })

  it('the call stream stops at the approval request; the approve stream carries the rest under the next ids (SSE)', async () => {
    const first = await sequenced(await call('delete-file', { path: '/tmp/b.txt' }, { auth: 'alice', sse: true }))
    expect(first.done).toBe(true)
    const types = typesOf(first.entries.map((entry) => entry.event))
    expect(types.slice(-2)).toEqual(['tool-approval-request', 'finish'])
    expect(types).not.toContain('tool-output-available')
    const request = first.entries.at(-2)!.event as { approvalId: string; toolCallId: string }
    const runId = (first.entries[0]!.event as { messageMetadata: { runId: string } }).messageMetadata.runId
    expect(first.entries.at(-1)!.event).toEqual({ type: 'finish', finishReason: 'other' })

    const approved = await runAction(runId, 'approve', { approvalId: request.approvalId }, { auth: 'alice', sse: true })
    expect(approved.status).toBe(200)
    expect(approved.headers.get('content-type')).toBe('text/event-stream')
    const second = await sequenced(approved)
    expect(second.done).toBe(true)
    expect(typesOf(second.entries.map((entry) => entry.event))).toEqual(['start', 'data-tool-approval-response', 'tool-output-available', 'finish'])
    expect(second.entries[0]!.event).toEqual({ type: 'start', messageMetadata: { runId, toolCallId: request.toolCallId } })
    // By default the decision travels as a data part that AI SDK 6 and 7 both accept (SPEC §3).
    expect(second.entries[1]!.event).toEqual({ type: 'data-tool-approval-response', data: { approvalId: request.approvalId, approved: true } })
    expect(second.entries[2]!.event).toEqual({ type: 'tool-output-available', toolCallId: request.toolCallId, output: { deleted: '/tmp/b.txt' } })
    // One log: the approve stream's ids follow the call's (display drops data-tool-model-output: id gap).
    expect(second.entries[0]!.id).toBe(first.entries.at(-1)!.id + 1)
    const all = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw' }))
    expect(all.entries.map((entry) => entry.id)).toEqual(all.entries.map((_, index) => index + 1))
    for (const entry of [...first.entries, ...second.entries]) expect(all.entries.find((stored) => stored.id === entry.id)?.event.type).toBe(entry.event.type)
  })

  it('decline with a reason: the tool never executes (JSON), and the log says so', async () => {
    const key = uniqueKey('decline')
    const { runId, approvalId, toolCallId } = await start('counted-approval', { key }, { auth: 'alice' })
    const declined = await runAction(runId, 'decline', { reason: 'not on a Friday' }, { auth: 'alice' })
    expect(declined.status).toBe(200)
    expect(await declined.json()).toEqual({ runId, toolCallId, status: 'declined', reason: 'not on a Friday' })
    expect(await counter(key).count()).toBe(0)
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'declined', reason: 'not on a Friday' })
    const { entries } = await sequenced(await runEvents(runId, { auth: 'alice' }))
    expect(entries.slice(-4).map((entry) => entry.event)).toEqual([
      { type: 'start', messageMetadata: { runId, toolCallId } },
      { type: 'data-tool-approval-response', data: { approvalId, approved: false, reason: 'not on a Friday' } },
      { type: 'tool-output-denied', toolCallId },
      { type: 'finish', finishReason: 'stop' },
    ])
    expect(await errorOf(await runAction(runId, 'approve', undefined, { auth: 'alice' }))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
    expect(await errorOf(await runAction(runId, 'decline', {}, { auth: 'alice' }))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
    expect(await counter(key).count()).toBe(0)
  })

  it('decline without a body answers reason null; over SSE it streams the denial', async () => {
    const plain = await start('delete-file', { path: '/x' }, { auth: 'alice' })
    const response = await runAction(plain.runId, 'decline', undefined, { auth: 'alice' })
    expect(await response.json()).toEqual({ runId: plain.runId, toolCallId: plain.toolCallId, status: 'declined', reason: null })

    const streamed = await start('delete-file', { path: '/y' }, { auth: 'alice' })
    const { events, done } = await readSse(await runAction(streamed.runId, 'decline', { reason: 'no' }, { auth: 'alice', sse: true }))
    expect(done).toBe(true)
    expect(typesOf(events)).toEqual(['start', 'data-tool-approval-response', 'tool-output-denied', 'finish'])
    expect(events[1]).toEqual({ type: 'data-tool-approval-response', data: { approvalId: streamed.approvalId, approved: false, reason: 'no' } })
  })

  it('a bad decline body changes nothing', async () => {
    const { runId } = await start('delete-file', { path: '/z' }, { auth: 'alice' })
    expect(await errorOf(await runAction(runId, 'decline', { reason: 42 }, { auth: 'alice' }))).toMatchObject({ status: 400, code: 'INPUT_VALIDATION_FAILED' })
    const notJson = await runAction(runId, 'decline', undefined, { auth: 'alice', headers: { 'content-type': 'application/json' } })
    // An empty body counts as {} (nothing to decline with): that is a decline without reason.
    expect(notJson.status).toBe(200)
    const other = await start('delete-file', { path: '/w' }, { auth: 'alice' })
    const broken = await runAction(other.runId, 'decline', '{"reason":', { auth: 'alice' })
    expect(await errorOf(broken)).toMatchObject({ status: 400, code: 'INVALID_JSON' })
    expect(await (await getRun(other.runId, { auth: 'alice' })).json()).toMatchObject({ status: 'approval-required' })
  })

  it('an approval id that is not the run’s is a conflict, and the run still waits', async () => {
    const { runId, approvalId } = await start('delete-file', { path: '/q' }, { auth: 'alice' })
    expect(await errorOf(await runAction(runId, 'approve', { approvalId: 'approval_nope' }, { auth: 'alice' }))).toMatchObject({ status: 409, code: 'RUN_STATE_CONFLICT' })
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'approval-required', approvalId })
    expect((await runAction(runId, 'approve', { approvalId }, { auth: 'alice' })).status).toBe(200)
  })

  it('requireApproval as a function of input and request context', async () => {
    const context = (userId: string) => ({ 'x-request-context': JSON.stringify({ userId }) })
    const small = await call('transfer-money', { amount: 50 }, { auth: 'bob', headers: context('bob') })
    expect(small.status).toBe(200)
    expect(await small.json()).toMatchObject({ status: 'completed', output: { transferred: 50, by: 'bob' } })
    // A stateless call is not stored.
    expect(await errorOf(await getRun(small.headers.get('x-run-id')!, { auth: 'bob' }))).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' })

    const large = await call('transfer-money', { amount: 500 }, { auth: 'bob', headers: context('bob') })
    expect(large.status).toBe(202)
    const waiting = (await large.json()) as { runId: string; status: string }
    expect(waiting.status).toBe('approval-required')
    // The approved execution sees the request context of the call that created the run.
    const approved = await runAction(waiting.runId, 'approve', undefined, { auth: 'bob' })
    expect(await approved.json()).toMatchObject({ status: 'completed', output: { transferred: 500, by: 'bob' } })

    const admin = await call('transfer-money', { amount: 500 }, { auth: 'root', headers: context('admin') })
    expect(admin.status).toBe(200)
    expect(await admin.json()).toMatchObject({ status: 'completed', output: { transferred: 500, by: 'admin' } })
  })

  it('50 concurrent approvals: one execution, 49 × 409', async () => {
    const key = uniqueKey('race-approve')
    const { runId } = await start('counted-approval', { key }, { auth: 'alice' })
    const responses = await Promise.all(Array.from({ length: 50 }, () => runAction(runId, 'approve', undefined, { auth: 'alice' })))
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(49)
    const bodies = await Promise.all(responses.map((response) => response.json() as Promise<Record<string, any>>))
    expect(bodies.find((body) => body.status === 'completed')).toMatchObject({ output: { executions: 1 } })
    for (const body of bodies.filter((body) => body.status !== 'completed')) expect(body.error.code).toBe('RUN_STATE_CONFLICT')
    expect(await counter(key).count()).toBe(1)
    const { events } = await readSse(await runEvents(runId, { auth: 'alice' }))
    expect(typesOf(events).filter((type) => type === 'tool-output-available')).toHaveLength(1)
    expect(typesOf(events).filter((type: string) => type === 'data-tool-approval-response')).toHaveLength(1)
  })

  it('approve racing decline: exactly one of them wins', async () => {
    const key = uniqueKey('race-decline')
    const { runId } = await start('counted-approval', { key }, { auth: 'alice' })
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => runAction(runId, index % 2 ? 'approve' : 'decline', index % 2 ? undefined : { reason: 'r' }, { auth: 'alice' })),
    )
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1)
    expect(responses.filter((response) => response.status === 409)).toHaveLength(19)
    const run = (await (await getRun(runId, { auth: 'alice' })).json()) as { status: string }
    expect(['completed', 'declined']).toContain(run.status)
    expect(await counter(key).count()).toBe(run.status === 'completed' ? 1 : 0)
  })

  it('approval of a background tool answers 202 running at once and completes in the object', async () => {
    const key = uniqueKey('approved-background')
    const { runId } = await start('approved-background', { key }, { auth: 'alice' })
    const approved = await runAction(runId, 'approve', undefined, { auth: 'alice' })
    expect(approved.status).toBe(202)
    expect(await approved.json()).toMatchObject({ runId, status: 'running' })
    const { events, done } = await readSse(await runEvents(runId, { auth: 'alice' }))
    expect(done).toBe(true)
    expect(typesOf(events).slice(-2)).toEqual(['tool-output-available', 'finish'])
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'completed', output: { executions: 1 } })
    expect(await counter(key).count()).toBe(1)
  })

  it('an approved step keeps streaming from its object for as long as the tool works', async () => {
    const key = uniqueKey('long-step')
    const { runId, toolCallId } = await start('gated-approval', { key }, { auth: 'alice' })
    const stream = liveSse(await runAction(runId, 'approve', undefined, { auth: 'alice', sse: true }))
    const seen: string[] = []
    while (!seen.includes('data-tool-log')) seen.push(JSON.parse((await stream.next())!.data).type)
    expect(seen).toEqual(['start', 'data-tool-approval-response', 'data-tool-log'])
    // The tool is parked at its gate; the run is running, and so is the stream.
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'running' })
    await counter(`${key}:gate`).increment()
    const rest: unknown[] = []
    for (let message = await stream.next(); message && message.data !== '[DONE]'; message = await stream.next()) rest.push(JSON.parse(message.data))
    expect(rest).toEqual([
      { type: 'tool-output-available', toolCallId, output: { executions: 1 } },
      { type: 'finish', finishReason: 'stop' },
    ])
    expect(await (await getRun(runId, { auth: 'alice' })).json()).toMatchObject({ status: 'completed' })
  })

  it('GET /runs/:runId shows the transcript view, never the raw secret; display streams hide it too', async () => {
    const call1 = await sequenced(await call('approval-transform', { label: 'invoice', secret: 's3cr3t' }, { auth: 'alice', sse: true }))
    expect(JSON.stringify(call1.entries)).not.toContain('s3cr3t')
    const runId = (call1.entries[0]!.event as { messageMetadata: { runId: string } }).messageMetadata.runId
    const approved = await sequenced(await runAction(runId, 'approve', undefined, { auth: 'alice', sse: true }))
    expect(JSON.stringify(approved.entries)).not.toContain('s3cr3t')
    expect(approved.entries.find((entry) => entry.event.type === 'tool-output-available')?.event).toMatchObject({ output: { label: 'invoice' } })

    const view = (await (await getRun(runId, { auth: 'alice' })).json()) as Record<string, any>
    expect(Object.keys(view).sort()).toEqual(['createdAt', 'history', 'modelOutput', 'output', 'runId', 'status', 'toolCallId', 'toolId', 'traceId', 'transcript', 'updatedAt'].sort())
    expect(view).toMatchObject({ toolId: 'approval-transform', status: 'completed', output: { label: 'invoice', secret: 's3cr3t' } })
    expect(JSON.stringify(view.transcript)).not.toContain('s3cr3t')
    const types = (view.transcript as { type: string }[]).map((event) => event.type)
    expect(types).toContain('tool-approval-request')
    expect(types).toContain('tool-approval-response')
    expect(view.transcript.find((event: { type: string }) => event.type === 'tool-input-available').input).toEqual({ label: 'invoice', secret: '[redacted]' })
    expect(view.transcript.find((event: { type: string }) => event.type === 'tool-output-available').output).toEqual({ label: 'invoice' })
    expect(types).not.toContain('data-tool-model-output')
  })

  it("a run's later step sees the request context its schema decodes from what the caller sent: a codec's Date stays a Date, a transform applies once", async () => {
    const sent = { since: '2026-11-30T08:00:00.000Z', doubled: 21 }
    const body = await start('context-codec-approval', {}, { auth: 'alice', headers: { 'x-request-context': JSON.stringify(sent) } })
    expect(body.status).toBe('approval-required')
    const approved = await runAction(body.runId, 'approve', undefined, { auth: 'alice' })
    expect(await approved.json()).toMatchObject({ status: 'completed', output: { sinceIsDate: true, since: '2026-11-30T08:00:00.000Z', doubled: 42 } })
  })
})
