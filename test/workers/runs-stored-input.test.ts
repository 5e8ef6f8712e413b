// A waiting run stores its input once (BENCHMARKS.md §3): the first step's input events are kept
// as references to the record and rebuilt when read, so a replay carries byte for byte the data
// the call's own stream did, whatever the input's size and however its body was chunked.
import { SELF, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readSse } from '../fixtures/read-sse.ts'
import { origin } from './http-client.ts'
import { as, runEvents, runObject } from './run-client.ts'

/** An SSE call of delete-file in the raw view, its JSON body sent in `parts` chunks (no content-length). */
async function chunkedCall(text: string, parts: number) {
  const size = Math.ceil(text.length / parts)
  const chunks = Array.from({ length: parts }, (_, index) => new TextEncoder().encode(text.slice(index * size, (index + 1) * size)))
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift()
      if (next) controller.enqueue(next)
      else controller.close()
    },
  })
  const response = await SELF.fetch(`${origin}/tools/delete-file?view=raw`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...as('alice') },
    body,
    duplex: 'half',
  } as RequestInit)
  expect(response.status).toBe(200)
  return { runId: response.headers.get('x-run-id')!, sse: await readSse(response) }
}

/** What a run's object stores: its record and its events, in bytes. */
const storedBytes = (runId: string) =>
  runInDurableObject(runObject(runId), async (_instance, state) => {
    const sql = state.storage.sql
    const record = sql.exec<{ bytes: number }>('SELECT COALESCE(SUM(LENGTH(CAST(record AS BLOB))), 0) AS bytes FROM run').one().bytes
    const events = sql.exec<{ bytes: number }>('SELECT COALESCE(SUM(LENGTH(CAST(body AS BLOB))), 0) AS bytes FROM event').one().bytes
    return record + events
  })

describe('a waiting run’s input, stored once', () => {
  for (const [label, size, parts] of [
    ['a small input, one chunk', 16, 1],
    ['a 4 KiB input, one chunk', 4096, 1],
    ['a 4 KiB input, five chunks', 4096, 5],
    ['a 256 KiB input, one chunk', 262_144, 1],
    ['a 64 KiB input, 16 chunks', 65_536, 16],
  ] as const) {
    it(`${label}: the replay is the call's stream, byte for byte, and at most 2 KB (plus ~45 bytes a further chunk) is stored beyond the input`, async () => {
      const text = JSON.stringify({ path: `/${'x'.repeat(size - 1)}` })
      const { runId, sse } = await chunkedCall(text, parts)
      const live = sse.messages.filter((message) => message.data !== '[DONE]')
      const deltas = live.filter((message) => JSON.parse(message.data).type === 'tool-input-delta').length
      expect(deltas).toBeGreaterThanOrEqual(parts > 1 ? 2 : 1)
      const replay = await readSse(await runEvents(runId, { auth: 'alice', view: 'raw' }))
      expect(replay.done).toBe(true)
      expect(replay.messages.slice(0, -1).map(({ id, data }) => ({ id, data }))).toEqual(live.map(({ id, data }) => ({ id, data })))
      // Each delta stays a stored event of its own (its number is its SSE id): ~45 bytes each.
      expect((await storedBytes(runId)) - new TextEncoder().encode(text).byteLength).toBeLessThanOrEqual(2048 + 50 * (deltas - 1))
    })
  }

  it('a body that is not the input as JSON text (other whitespace) is stored as it came, and replays the same', async () => {
    const text = JSON.stringify({ path: '/spaced' }, null, 2)
    const { runId, sse } = await chunkedCall(text, 2)
    const live = sse.messages.filter((message) => message.data !== '[DONE]')
    const replay = await readSse(await runEvents(runId, { auth: 'alice', view: 'raw' }))
    expect(replay.messages.slice(0, -1).map(({ id, data }) => ({ id, data }))).toEqual(live.map(({ id, data }) => ({ id, data })))
  })
})
