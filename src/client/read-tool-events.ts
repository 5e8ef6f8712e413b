import { EventSourceParserStream } from 'eventsource-parser/stream'
import { sseDoneData } from '../protocol/encode-sse.ts'
import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import { fromUiMessageChunk } from '../protocol/ui-message-chunk.ts'
import { ToolClientError } from './tool-client-error.ts'

/** Marks the stream's own end (`data: [DONE]`), as opposed to a connection that broke. */
export const streamDone = Symbol('toolroute.stream-done')

/**
 * The tool events of a toolroute SSE body, each with its id in the run's log, then `streamDone`
 * if the server ended the stream itself. A body that ends without it was cut off.
 */
export async function* readToolEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SequencedEvent | typeof streamDone> {
  // An event cut off by the end of the body is dropped, as EventSource does. Stopping early (a
  // `break`, an abort) cancels the body, which closes the connection.
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader()
  let seq = 0
  try {
    while (true) {
      const { done, value: message } = await reader.read()
      if (done) return
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
  } finally {
    await reader.cancel().catch(() => {})
  }
}
