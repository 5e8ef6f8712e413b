import { unencodableEvent, type EventProjector } from '../runs/create-event-projector.ts'
import { encodeSseEvent, keepAliveIntervalMs, sseDone, sseHeaders, sseKeepAlive } from '../protocol/encode-sse.ts'
import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import { toUiMessageChunk, type UiMessageStreamDialect } from '../protocol/ui-message-chunk.ts'

export interface SseResponseOptions {
  headers?: Record<string, string>
  /** Which AI SDK majors read the stream (default `'ai6'`: chunks both 6 and 7 accept). */
  dialect?: UiMessageStreamDialect
  onCancel?: () => void
  /** Silence before a `: keep-alive` comment (default 15 s). */
  keepAliveMs?: number | undefined
}

/** The AI SDK UI message stream over SSE: `id:` each event's place in the run's log, keep-alives, `[DONE]` last. */
export function sseResponse(events: AsyncIterable<SequencedEvent>, project: EventProjector, options: SseResponseOptions = {}): Response {
  const encoder = new TextEncoder()
  const dialect = options.dialect ?? 'ai6'
  const iterator = events[Symbol.asyncIterator]()
  let keepAlive: ReturnType<typeof setInterval> | undefined
  let finished = false
  const stop = () => {
    finished = true
    if (keepAlive) clearInterval(keepAlive)
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      keepAlive = setInterval(() => {
        try {
          controller.enqueue(encoder.encode(sseKeepAlive))
        } catch {
          stop()
        }
      }, options.keepAliveMs ?? keepAliveIntervalMs)
    },
    // Loops until it enqueues: a pull that enqueues nothing (a dropped event) is not called again.
    async pull(controller) {
      try {
        while (true) {
          const next = await iterator.next()
          if (next.done) {
            controller.enqueue(encoder.encode(sseDone))
            stop()
            controller.close()
            return
          }
          const shown = await project(next.value.event)
          const text = shown && encodeOr(next.value.seq, shown, next.value.event, dialect)
          if (text) {
            controller.enqueue(encoder.encode(text))
            return
          }
        }
      } catch (error) {
        stop()
        controller.error(error)
      }
    },
    async cancel() {
      if (!finished) options.onCancel?.()
      stop()
      await iterator.return?.()
    },
  })
  return new Response(body, { headers: { ...sseHeaders, ...options.headers } })
}

/** An event's SSE text; one that cannot be encoded is sent as its phase's failure (`unencodableEvent`), or not at all. */
function encodeOr(seq: number, shown: ToolEvent, raw: ToolEvent, dialect: UiMessageStreamDialect): string | undefined {
  try {
    return encodeSseEvent(seq, toUiMessageChunk(shown, dialect))
  } catch {
    const instead = unencodableEvent(shown, raw)
    return instead && encodeSseEvent(seq, toUiMessageChunk(instead, dialect))
  }
}
