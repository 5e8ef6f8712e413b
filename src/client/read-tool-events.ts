import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { sseDoneData } from '../protocol/encode-sse.ts'
import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import { fromUiMessageChunk } from '../protocol/ui-message-chunk.ts'
import { ToolClientError } from './tool-client-error.ts'

/** Marks the stream's own end (`data: [DONE]`), as opposed to a connection that broke. */
export const streamDone = Symbol('toolroute.stream-done')

/**
 * The messages of an SSE body as they arrive, parsed by eventsource-parser. Stopping early
 * (a `break`, an abort) cancels the body, which closes the connection.
 */
export async function* readSseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const queue: EventSourceMessage[] = []
  const parser = createParser({ onEvent: (message) => void queue.push(message) })
  let ended = false
  try {
    while (true) {
      const { done, value } = await reader.read()
      // An event cut off by the end of the body is dropped, as EventSource does.
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }))
      while (queue.length > 0) yield queue.shift()!
      if (done) {
        ended = true
        return
      }
    }
  } finally {
    if (!ended) await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}

/**
 * The tool events of a toolroute SSE body, each with its id in the run's log, then `streamDone`
 * if the server ended the stream itself. A body that ends without it was cut off.
 */
export async function* readToolEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SequencedEvent | typeof streamDone> {
  let seq = 0
  for await (const message of readSseMessages(body)) {
    if (message.data === sseDoneData) {
      yield streamDone
      return
    }
    // An event without `id:` keeps the last one, as EventSource's last event id does.
    if (message.id !== undefined && /^\d+$/.test(message.id)) seq = Number(message.id)
    let event: ToolEvent
    try {
      event = JSON.parse(message.data) as ToolEvent
    } catch (error) {
      throw new ToolClientError('UNEXPECTED_RESPONSE', `An event of the stream is not JSON: ${message.data.slice(0, 100)}`, { cause: error })
    }
    if (typeof event !== 'object' || event === null || typeof event.type !== 'string') {
      throw new ToolClientError('UNEXPECTED_RESPONSE', `An event of the stream has no type: ${message.data.slice(0, 100)}`)
    }
    // `data-tool-approval-response` (the AI SDK 6 dialect, SPEC §3) reaches callers as `tool-approval-response`.
    yield { seq, event: fromUiMessageChunk(event) }
  }
}
