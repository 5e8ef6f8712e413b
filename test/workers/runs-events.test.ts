// GET /runs/:runId/events: replay from Last-Event-ID or ?after= at every cut point, of a finished
// run and of a live one; the call's own stream uses the same ids.
import { describe, expect, it } from 'vitest'
import type { ToolEvent } from 'toolroute'
import { typesOf } from '../fixtures/read-sse.ts'
import { call, counter, entriesOf, liveSse, runAction, runEvents, sequenced, start, uniqueKey } from './run-client.ts'

type Entry = { id: number; event: ToolEvent }

/** A finished run: called over SSE, approved over SSE. */
async function finishedRun(): Promise<{ runId: string; streamed: Entry[] }> {
  const first = await sequenced(await call('delete-file', { path: '/replay' }, { auth: 'alice', sse: true, headers: {} }))
  const runId = (first.entries[0]!.event as { messageMetadata: { runId: string } }).messageMetadata.runId
  const second = await sequenced(await runAction(runId, 'approve', undefined, { auth: 'alice', sse: true }))
  return { runId, streamed: [...first.entries, ...second.entries] }
}

describe('run events', () => {
  it('replays a finished run from every cut point, with Last-Event-ID and with ?after=, losing and repeating nothing', async () => {
    const { runId, streamed } = await finishedRun()
    const full = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw' }))
    expect(full.done).toBe(true)
    const ids = full.entries.map((entry) => entry.id)
    expect(ids).toEqual(ids.map((_, index) => index + 1))
    expect(typesOf(full.entries.map((entry) => entry.event))).toEqual([
      'start',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-available',
      'tool-approval-request',
      'finish',
      'start',
      'data-tool-approval-response',
      'tool-output-available',
      'data-tool-model-output',
      'finish',
    ])
    // What the caller's own streams carried (display view) is the stored log under the same ids.
    for (const entry of streamed) expect(full.entries[entry.id - 1]!.event).toEqual(entry.event)

    for (let cut = 0; cut <= ids.length; cut++) {
      const byHeader = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw', lastEventId: cut }))
      const byQuery = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw', after: cut }))
      expect(byHeader.done).toBe(true)
      expect(byQuery).toEqual(byHeader)
      expect([...full.entries.slice(0, cut), ...byHeader.entries]).toEqual(full.entries)
    }
    // Last-Event-ID wins over ?after=; a cursor that is not a number replays from the start.
    expect((await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw', lastEventId: 9, after: 2 }))).entries.map((entry) => entry.id)).toEqual([10, 11])
    const garbage = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw', headers: { 'last-event-id': 'abc' } }))
    expect(garbage.entries).toEqual(full.entries)
  })

  it('the events route answers the AI SDK stream headers and the display view by default', async () => {
    const { runId } = await finishedRun()
    const response = await runEvents(runId, { auth: 'alice' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    expect(response.headers.get('x-run-id')).toBe(runId)
    const { entries } = await sequenced(response)
    expect(typesOf(entries.map((entry) => entry.event))).not.toContain('data-tool-model-output')
  })

  it('a waiting run replays what it has and ends: it waits for a human, not for the stream', async () => {
    const { runId } = await start('book-flight', { from: 'AMS', to: 'BCN' }, { auth: 'alice' })
    const { entries, done } = await sequenced(await runEvents(runId, { auth: 'alice' }))
    expect(done).toBe(true)
    expect(typesOf(entries.map((entry) => entry.event)).slice(-2)).toEqual(['data-tool-suspended', 'finish'])
  })

  it('follows a live run: a reader that disconnects at every point and reconnects with Last-Event-ID gets each event once', async () => {
    const key = uniqueKey('live')
    const steps = 4
    const response = await call('gated-background', { key, steps }, { auth: 'alice', sse: true })
    expect(response.status).toBe(200)
    const runId = response.headers.get('x-run-id')!
    const received: Entry[] = []
    // The call's own stream first: read its first event, then drop the connection.
    let stream = liveSse(response)
    let opened = 0
    let finished = false
    while (!finished) {
      const message = await stream.next()
      if (!message) {
        // The stream ended without [DONE]: not expected from a live follower.
        throw new Error('stream ended early')
      }
      if (message.data === '[DONE]') {
        finished = true
        break
      }
      received.push(...entriesOf([message]))
      const last = received.at(-1)!.event
      // The tool waits at a gate after each log: open it so the run moves on.
      if (last.type === 'data-tool-log' && opened < steps) {
        opened++
        await counter(`${key}:gate`).increment()
      }
      // Disconnect after every single event and pick up where we left off.
      await stream.stop()
      stream = liveSse(await runEvents(runId, { auth: 'alice', lastEventId: received.at(-1)!.id }))
    }
    const ids = received.map((entry) => entry.id)
    expect(new Set(ids).size).toBe(ids.length)
    const full = await sequenced(await runEvents(runId, { auth: 'alice' }))
    expect(received).toEqual(full.entries)
    expect(typesOf(received.map((entry) => entry.event)).filter((type) => type === 'data-tool-log')).toHaveLength(steps)
    expect(received.at(-1)!.event).toEqual({ type: 'finish', finishReason: 'stop' })
    expect(await counter(key).count()).toBe(1)
  })

  it('a background call’s SSE stream follows the run live to its end', async () => {
    const key = uniqueKey('follow')
    const response = await call('gated-background', { key, steps: 2 }, { auth: 'alice', sse: true })
    const runId = response.headers.get('x-run-id')!
    await counter(`${key}:gate`).increment()
    await counter(`${key}:gate`).increment()
    const { entries, done } = await sequenced(response)
    expect(done).toBe(true)
    expect(typesOf(entries.map((entry) => entry.event))).toEqual([
      'start',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-available',
      'data-tool-attempt',
      'data-tool-log',
      'data-tool-log',
      'tool-output-available',
      'finish',
    ])
    expect(entries[4]!.event).toEqual({ type: 'data-tool-attempt', data: { attempt: 1, of: 1 } })
    expect(entries.map((entry) => entry.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 10])
    expect((await sequenced(await runEvents(runId, { auth: 'alice' }))).entries).toEqual(entries)
  })

  it('replays a live run from every cut point while it is still running', async () => {
    const key = uniqueKey('live-cuts')
    const { runId } = await start('gated-background', { key, steps: 3 }, { auth: 'alice' })
    // Wait for the first log: the run is now parked at gate 1 with events 1..n stored.
    const follower = liveSse(await runEvents(runId, { auth: 'alice', view: 'raw' }))
    const head: Entry[] = []
    while (!head.some((entry) => entry.event.type === 'data-tool-log')) head.push(...entriesOf([(await follower.next())!]))
    await follower.stop()
    // Every cut of the stored prefix, each read live: take the rest of the prefix, then disconnect.
    for (let cut = 0; cut <= head.length; cut++) {
      const live = liveSse(await runEvents(runId, { auth: 'alice', view: 'raw', lastEventId: cut }))
      const got: Entry[] = []
      while (got.length < head.length - cut) got.push(...entriesOf([(await live.next())!]))
      await live.stop()
      expect([...head.slice(0, cut), ...got]).toEqual(head)
    }
    for (let step = 0; step < 3; step++) await counter(`${key}:gate`).increment()
    const rest = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw', lastEventId: head.at(-1)!.id }))
    expect(rest.done).toBe(true)
    const full = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw' }))
    expect([...head, ...rest.entries]).toEqual(full.entries)
    expect(full.entries.map((entry) => entry.id)).toEqual(full.entries.map((_, index) => index + 1))
  })
})
