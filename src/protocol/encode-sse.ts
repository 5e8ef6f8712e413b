import { headerNames } from './header-names.ts'
import type { UiMessageChunk } from './ui-message-chunk.ts'

/** The media type of every event stream (the `accept` that asks for SSE). */
export const eventStreamMediaType = 'text/event-stream'

/** Headers of the AI SDK UI message stream (SPEC §3). */
export const sseHeaders = {
  'content-type': eventStreamMediaType,
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  [headerNames.uiMessageStream]: 'v1',
  'x-accel-buffering': 'no',
} as const

/** One event: `id: <seq>`, `data: <json>`, a blank line; no `event:` line. */
export function encodeSseEvent(seq: number, event: UiMessageChunk): string {
  return `id: ${seq}\ndata: ${JSON.stringify(event)}\n\n`
}

/** The `data` of the last message of every stream: the stream ended by itself, it was not cut off. */
export const sseDoneData = '[DONE]'

/** The end of every stream. */
export const sseDone = `data: ${sseDoneData}\n\n`

/** Sent every 15 s while nothing else is, so proxies keep the connection. */
export const sseKeepAlive = ': keep-alive\n\n'

export const keepAliveIntervalMs = 15_000
