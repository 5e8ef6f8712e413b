import type { ToolModelOutput } from './model-output.ts'

/** `data-tool-span`'s payload: one observed span, at its start and at its end. */
export interface SpanData {
  spanId: string
  parentSpanId?: string
  name: string
  phase: 'start' | 'end'
  durationMs?: number
  status?: 'ok' | 'error'
  attributes?: Record<string, unknown>
}

/** `data-tool-log`'s payload. */
export interface LogData {
  level: 'debug' | 'info' | 'warn' | 'error' | 'fatal'
  message: string
  data?: Record<string, unknown>
  time: string
}

/**
 * `data-tool-attempt`'s payload: a background run's attempt `attempt` of at most `of` begins
 * (SPEC §12), so a replay shows where a retry began.
 */
export interface AttemptData {
  attempt: number
  of: number
}

/**
 * One event of a tool's lifecycle, in the AI SDK UI message stream's own shapes (SPEC §3), so
 * `useChat` and the AI SDK's stream readers read toolroute streams directly. `ToolDataEvent` is
 * any chunk a tool wrote with `writer.custom` (SPEC §8).
 */
export type ToolEvent =
  | { type: 'start'; messageMetadata: { runId: string; toolCallId: string; traceId?: string } }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-input-error'; toolCallId: string; toolName: string; input: unknown; errorText: string }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-approval-response'; approvalId: string; approved: boolean; reason?: string }
  | {
      type: 'data-tool-suspended'
      data: { runId: string; toolCallId: string; suspendPayload: unknown; resumeSchema?: Record<string, unknown> }
    }
  | { type: 'data-tool-resumed'; data: { runId: string; toolCallId: string; resumeData: unknown } }
  | { type: 'data-tool-log'; data: LogData }
  | { type: 'data-tool-attempt'; data: AttemptData }
  | { type: 'data-tool-span'; data: SpanData }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; preliminary?: boolean }
  | { type: 'data-tool-output'; data: { toolCallId: string; output: unknown } }
  | ToolDataEvent
  | { type: 'data-tool-model-output'; data: { toolCallId: string; modelOutput: ToolModelOutput } }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'finish'; finishReason: 'stop' | 'error' | 'tool-calls' | 'other' }

/**
 * The `type` of a chunk a tool wrote with `writer.custom`: any `data-<name>`. The brand never
 * exists at run time; it keeps `event.type === 'data-tool-log'` narrowing to toolroute's own
 * event (a bare `data-${string}` would match every literal and leave `data` unknown). Test a
 * custom chunk with `isToolDataEvent(event, 'data-<name>')`.
 */
export type ToolDataType = `data-${string}` & { readonly '~toolDataType': true }

/** A chunk written with `writer.custom` (an AI SDK data part), as the tool wrote it (SPEC §8). */
export interface ToolDataEvent {
  type: ToolDataType
  data: unknown
  id?: string
  /** Sent to live readers only: never stored, never replayed. */
  transient?: boolean
}

/**
 * Whether an event is a chunk the tool wrote with `writer.custom`, of the given `type` when one
 * is named: `if (isToolDataEvent(event, 'data-progress')) show(event.data)`. `data-tool-*` is
 * toolroute's own namespace (`data-tool-log`, `data-tool-output`…): no custom chunk is named so.
 */
export function isToolDataEvent(event: ToolEvent, type?: `data-${string}`): event is ToolDataEvent {
  const name: string = event.type
  return name.startsWith('data-') && !name.startsWith('data-tool-') && (type === undefined || name === type)
}

export type ToolEventType = ToolEvent['type']

/** A tool event with its place in the run's log: the SSE `id:` and the replay cursor. */
export interface SequencedEvent {
  seq: number
  event: ToolEvent
}

/** The three audiences of one run (SPEC §3 "Views"). */
export const toolEventViews = ['display', 'raw', 'transcript'] as const
export type ToolEventView = (typeof toolEventViews)[number]

/** Receives events as the executor produces them. */
export type EmitEvent = (event: ToolEvent) => void
