import type { ToolEvent } from './tool-event.ts'

/**
 * Which AI SDK majors must read a stream (SPEC §3). `'ai6'` (the default) sends only chunks that
 * both AI SDK 6 and 7 accept; `'ai7'` also sends the chunks only AI SDK 7 knows. A caller asks for
 * `'ai7'` with `?aiSdk=7`.
 */
export type UiMessageStreamDialect = 'ai6' | 'ai7'

/** The data part that carries `tool-approval-response` to a reader that may be AI SDK 6. */
export interface ApprovalResponseData {
  approvalId: string
  approved: boolean
  reason?: string
}

/** `tool-approval-response` as AI SDK 6 readers get it: a data part with the same fields. */
export interface ApprovalResponseChunk {
  type: 'data-tool-approval-response'
  data: ApprovalResponseData
}

/** What an SSE `data:` line of a toolroute stream carries: an event, in the dialect the reader asked for. */
export type UiMessageChunk = ToolEvent | ApprovalResponseChunk

/**
 * An event as the chunk a reader of the dialect accepts. Only `tool-approval-response` differs:
 * AI SDK 6's `uiMessageChunkSchema` rejects it (a v6 `useChat` fails on the whole stream), so by
 * default it travels as the data part `data-tool-approval-response` with the same fields. The
 * run's log keeps the canonical event; this is applied where a stream is written.
 */
export function toUiMessageChunk(event: ToolEvent, dialect: UiMessageStreamDialect): UiMessageChunk {
  if (dialect === 'ai7' || event.type !== 'tool-approval-response') return event
  const { type: _, ...data } = event
  return { type: 'data-tool-approval-response', data }
}

/** The inverse of `toUiMessageChunk`: the canonical event of a chunk of either dialect (what the client hands its callers). */
export function fromUiMessageChunk(chunk: UiMessageChunk): ToolEvent {
  const { type, data } = chunk as { type: string; data?: ApprovalResponseData }
  if (type !== 'data-tool-approval-response' || typeof data !== 'object' || data === null) return chunk as ToolEvent
  return { type: 'tool-approval-response', ...data }
}

/** The dialect a request asks for: `?aiSdk=7` (or `v7`) for AI SDK 7's own chunks. */
export function uiMessageStreamDialectOf(requested: string | undefined): UiMessageStreamDialect {
  return requested === '7' || requested === 'v7' ? 'ai7' : 'ai6'
}
