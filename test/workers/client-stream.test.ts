import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createToolClient, ToolClientError, type SequencedEvent, type ToolEvent } from 'toolroute/client'
import type { weatherTool } from '../../tools/weather-tool.ts'
import type { deleteFile } from '../../tools/delete-file.ts'
import type { generateReport } from '../../tools/generate-report.ts'

const client = createToolClient<[typeof weatherTool, typeof deleteFile, typeof generateReport]>({ fetcher: SELF })

async function collect(events: AsyncIterable<SequencedEvent>): Promise<SequencedEvent[]> {
  const all: SequencedEvent[] = []
  for await (const entry of events) all.push(entry)
  return all
}
const types = (events: SequencedEvent[]) => events.map((entry) => entry.event.type)

/** Text pieces that wait for `release()` before the second piece, to prove the body is streamed. */
function gatedPieces(pieces: string[]) {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const sent: string[] = []
  async function* iterate() {
    for (const [index, piece] of pieces.entries()) {
      if (index === 1) await gate
      sent.push(piece)
      yield piece
    }
  }
  return { pieces: iterate(), release, sent }
}

describe('client over a service binding: streams', () => {
  it('streams a call’s typed events in order, each with its id', async () => {
    const events = await collect(client.stream('weather-tool', { location: 'Porto' }, { toolCallId: 'call_stream_1' }))
    expect(types(events)).toEqual(['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'finish'])
    // Ids are places in the run's log: increasing, with a gap where the view drops an event (the model output).
    expect(events.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 7])
    const output = events.find((entry) => entry.event.type === 'tool-output-available')!.event as Extract<ToolEvent, { type: 'tool-output-available' }>
    expect(output).toMatchObject({ toolCallId: 'call_stream_1', output: { location: 'Porto', conditions: 'sunny' } })
    const start = events[0]!.event as Extract<ToolEvent, { type: 'start' }>
    expect(start.messageMetadata.toolCallId).toBe('call_stream_1')
  })

  it('stops at the approval request, and the run is there to approve', async () => {
    const events = await collect(client.stream('delete-file', { path: '/tmp/b' }))
    expect(types(events)).toEqual(['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-approval-request', 'finish'])
    const start = events[0]!.event as Extract<ToolEvent, { type: 'start' }>
    const run = await client.getRun(start.messageMetadata.runId)
    expect(run.status).toBe('approval-required')
  })

  it('streams a background run live to its end', async () => {
    const events = await collect(client.stream('generate-report', { month: '2026-02', delayMs: 50 }))
    expect(types(events)).toContain('data-tool-log')
    expect(events.at(-2)?.event).toMatchObject({ type: 'tool-output-available', output: { month: '2026-02', rows: 31 } })
    expect(events.at(-1)?.event).toEqual({ type: 'finish', finishReason: 'stop' })
  })

  it('rejects a bad input before streaming, with its code', async () => {
    const iterator = client.stream('weather-tool', { location: '' })[Symbol.asyncIterator]()
    const error = await iterator.next().then(() => undefined, (thrown: unknown) => thrown)
    expect(ToolClientError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'INPUT_VALIDATION_FAILED', status: 400 })
  })

  it('sends an async iterable of argument deltas as the body while they arrive', async () => {
    const input = gatedPieces(['{"locat', 'ion":"Fa', 'ro"}'])
    const seen: SequencedEvent[] = []
    for await (const entry of client.stream('weather-tool', input.pieces, { toolCallId: 'call_deltas' })) {
      seen.push(entry)
      // The server reports the first piece before the second exists: a client that buffered
      // the input would never get here, and the test would time out.
      if (entry.event.type === 'tool-input-delta' && input.sent.length === 1) input.release()
    }
    const deltas = seen.filter((entry) => entry.event.type === 'tool-input-delta').map((entry) => (entry.event as { inputTextDelta: string }).inputTextDelta)
    expect(deltas[0]).toBe('{"locat')
    expect(deltas.join('')).toBe('{"location":"Faro"}')
    expect(seen.find((entry) => entry.event.type === 'tool-input-available')?.event).toMatchObject({ input: { location: 'Faro' } })
    expect(seen.find((entry) => entry.event.type === 'tool-output-available')?.event).toMatchObject({ output: { location: 'Faro' } })
  })

  it('ends a streamed input that fails validation with tool-input-error', async () => {
    async function* pieces() {
      yield '{"location":'
      yield '""}'
    }
    const events = await collect(client.stream('weather-tool', pieces()))
    expect(types(events)).toContain('tool-input-error')
    expect(types(events)).not.toContain('tool-output-available')
    expect(events.at(-1)?.event).toEqual({ type: 'finish', finishReason: 'error' })
  })

  it('calls with a streamed input for JSON too', async () => {
    async function* pieces() {
      yield '{"location"'
      yield ':"Braga"}'
    }
    expect(await client.call('weather-tool', pieces())).toMatchObject({ status: 'completed', output: { location: 'Braga' } })
    async function* broken() {
      yield '{"location":'
    }
    await expect(client.call('weather-tool', broken())).rejects.toMatchObject({ code: 'INVALID_JSON', status: 400 })
  })

  it('asks for a view', async () => {
    const raw = await collect(client.stream('weather-tool', { location: 'Evora' }, { view: 'raw' }))
    expect(types(raw)).toContain('data-tool-model-output')
    const display = await collect(client.stream('weather-tool', { location: 'Evora' }))
    expect(types(display)).not.toContain('data-tool-model-output')
  })
})
