import { headerNames } from './header-names.ts'
import type { ToolEvent } from './tool-event.ts'
import type { toUiMessageChunk } from './ui-message-chunk.ts'

/** Headers of the AI SDK UI message stream (SPEC §3). */
export const sseHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  [headerNames.uiMessageStream]: 'v1',
  'x-accel-buffering': 'no',
} as const

/** One event: `id: <seq>`, `data: <json>`, a blank line; no `event:` line. */
export function encodeSseEvent(seq: number, event: ToolEvent | ReturnType<typeof toUiMessageChunk>): string {
  return `id: ${seq}\ndata: ${JSON.stringify(event)}\n\n`
}

/** The end of every stream. */
export const sseDone = 'data: [DONE]\n\n'

/** Sent every 15 s while nothing else is, so proxies keep the connection. */
export const sseKeepAlive = ': keep-alive\n\n'

export const keepAliveIntervalMs = 15_000
