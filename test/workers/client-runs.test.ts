import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createToolClient, type SequencedEvent } from 'toolroute/client'
import type { deleteFile } from '../../tools/delete-file.ts'
import type { bookFlight } from '../../tools/book-flight.ts'
import type { generateReport } from '../../tools/generate-report.ts'

const client = createToolClient<{ deleteFile: typeof deleteFile; bookFlight: typeof bookFlight; generateReport: typeof generateReport }>({ fetcher: SELF })

async function collect(events: AsyncIterable<SequencedEvent>): Promise<SequencedEvent[]> {
  const all: SequencedEvent[] = []
  for await (const entry of events) all.push(entry)
  return all
}

describe('client over a service binding: runs', () => {
  it('approves a run, which then executes once', async () => {
    const call = await client.call('delete-file', { path: '/tmp/c' })
    if (call.status !== 'approval-required') throw new Error(`expected approval-required, got ${call.status}`)
    const approved = await client.approve<'delete-file'>(call.runId, { approvalId: call.approvalId })
    expect(approved).toMatchObject({ status: 'completed', runId: call.runId, output: { deleted: '/tmp/c' } })
    await expect(client.approve(call.runId)).rejects.toMatchObject({ code: 'RUN_STATE_CONFLICT', status: 409 })
    const run = await client.getRun(call.runId)
    expect(run).toMatchObject({ runId: call.runId, toolId: 'delete-file', status: 'completed', output: { deleted: '/tmp/c' } })
    expect(run.transcript.length).toBeGreaterThan(0)
  })

  it('refuses an approval with the wrong approval id', async () => {
    const call = await client.call('delete-file', { path: '/tmp/d' })
    await expect(client.approve(call.runId, { approvalId: 'approval_wrong' })).rejects.toMatchObject({ status: 409 })
    expect((await client.getRun(call.runId)).status).toBe('approval-required')
  })

  it('declines a run with a reason; the tool never executes', async () => {
    const call = await client.call('delete-file', { path: '/etc/passwd' })
    const declined = await client.decline(call.runId, { reason: 'not that file' })
    expect(declined).toEqual({ runId: call.runId, toolCallId: call.toolCallId, status: 'declined', reason: 'not that file' })
    const run = await client.getRun(call.runId)
    expect(run.status).toBe('declined')
    expect(run.output).toBeUndefined()
  })

  it('resumes a suspended run; a bad resume leaves it suspended', async () => {
    const call = await client.call('book-flight', { from: 'LIS', to: 'FNC' })
    if (call.status !== 'suspended') throw new Error(`expected suspended, got ${call.status}`)
    expect(call.suspendPayload.seats).toContain('12A')
    await expect(client.resume<'book-flight'>(call.runId, { seat: 'window' })).rejects.toMatchObject({ code: 'RESUME_VALIDATION_FAILED', status: 400 })
    expect((await client.getRun(call.runId)).status).toBe('suspended')
    const resumed = await client.resume<'book-flight'>(call.runId, { seat: '12A' })
    expect(resumed).toMatchObject({ status: 'completed', output: { confirmation: 'LIS-FNC-12A', seat: '12A' } })
  })

  it('cancels a waiting run, after which it cannot be approved', async () => {
    const call = await client.call('delete-file', { path: '/tmp/e' })
    expect(await client.cancel(call.runId)).toEqual({ runId: call.runId, toolCallId: call.toolCallId, status: 'cancelled' })
    await expect(client.approve(call.runId)).rejects.toMatchObject({ code: 'RUN_STATE_CONFLICT' })
    await expect(client.cancel('run_missing')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND', status: 404 })
  })

  it('follows a settled run: its whole log, then the end', async () => {
    const call = await client.call('delete-file', { path: '/tmp/f' })
    await client.approve(call.runId)
    const events = await collect(client.follow(call.runId))
    const types = events.map((entry) => entry.event.type)
    expect(types.slice(0, 2)).toEqual(['start', 'tool-input-start'])
    expect(types).toContain('tool-approval-request')
    expect(types).toContain('tool-approval-response')
    expect(events.at(-1)?.event.type).toBe('finish')
    const after = await collect(client.follow(call.runId, { after: events[3]!.seq }))
    expect(after).toEqual(events.slice(4))
  })
})
