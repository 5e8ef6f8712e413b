import { ToolrouteError } from '../errors/toolroute-error.ts'
import { callHook, withAbortSignal } from './call-hook.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { safeParseJson } from './safe-parse-json.ts'
import { checkInput, type Checked } from './validate-call.ts'

/**
 * Where a call's input comes from: a value already parsed, or JSON text arriving in chunks (a
 * body already read whole is an array of one chunk: no stream machinery on the fast path).
 */
export type ToolInputSource =
  | { input: unknown }
  | { chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>; maxBytes?: number }

/** What came in, for the run record: the raw JSON value and the validated one. */
export interface ReceivedInput {
  raw: unknown
  value: unknown
}

function hookOptions<T extends object = {}>(scope: ToolCallScope, fields?: T) {
  return withAbortSignal(scope, { toolCallId: scope.toolCallId, messages: scope.messages, ...fields } as { toolCallId: string; messages: unknown[] } & T)
}

async function readChunks(
  scope: ToolCallScope,
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  maxBytes: number,
): Promise<Checked<string>> {
  const { tool, emit, observe } = scope
  const onInputDelta = tool.options.onInputDelta
  // Made on the first byte chunk: a body read whole arrives as text and needs none.
  let decoder: TextDecoder | undefined
  const parts: string[] = []
  let bytes = 0
  // Returns a promise only when a hook must be awaited: no await per chunk otherwise.
  const delta = (text: string): Promise<void> | undefined => {
    parts.push(text)
    emit?.({ type: 'tool-input-delta', toolCallId: scope.toolCallId, inputTextDelta: text })
    return onInputDelta ? callHook('onInputDelta', onInputDelta, hookOptions(scope, { inputTextDelta: text }), observe) : undefined
  }
  const take = (chunk: Uint8Array | string): Checked<never> | Promise<void> | undefined => {
    bytes += typeof chunk === 'string' ? chunk.length : chunk.byteLength
    if (bytes > maxBytes) {
      return { ok: false, error: new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`) }
    }
    const text = typeof chunk === 'string' ? chunk : (decoder ??= new TextDecoder()).decode(chunk, { stream: true })
    return text === '' ? undefined : delta(text)
  }
  if (Symbol.asyncIterator in chunks) {
    for await (const chunk of chunks) {
      const taken = take(chunk)
      if (taken instanceof Promise) await taken
      else if (taken) return taken
    }
  } else {
    // A body already read whole: iterated without an await per chunk.
    for (const chunk of chunks) {
      const taken = take(chunk)
      if (taken instanceof Promise) await taken
      else if (taken) return taken
    }
  }
  const tail = decoder?.decode() ?? ''
  if (tail !== '') await delta(tail)
  return { ok: true, value: parts.join('') }
}

/** Validates a parsed input and emits `tool-input-available` or `tool-input-error` (no hooks). */
function acceptInput(scope: ToolCallScope, raw: unknown): Checked<unknown> {
  const { tool, emit } = scope
  const checked = checkInput(tool.id, tool.schemas.input, raw)
  if (!checked.ok) {
    emit?.({ type: 'tool-input-error', toolCallId: scope.toolCallId, toolName: tool.id, input: raw ?? null, errorText: checked.error.message })
  } else {
    emit?.({ type: 'tool-input-available', toolCallId: scope.toolCallId, toolName: tool.id, input: raw ?? {} })
  }
  return checked
}

/**
 * The input phase of a call: `tool-input-start` (and `onInputStart`), one `tool-input-delta`
 * (and `onInputDelta`) per chunk as it arrives, then `tool-input-available` (and
 * `onInputAvailable`) once the whole input parsed and validated, or `tool-input-error`.
 */
export async function receiveInput(scope: ToolCallScope, source: ToolInputSource): Promise<Checked<ReceivedInput>> {
  const { tool, emit, observe } = scope
  const { onInputStart, onInputAvailable } = tool.options
  emit?.({ type: 'tool-input-start', toolCallId: scope.toolCallId, toolName: tool.id })
  if (onInputStart) await callHook('onInputStart', onInputStart, hookOptions(scope), observe)

  let raw: unknown
  if ('input' in source) {
    raw = source.input
  } else {
    const read = await readChunks(scope, source.chunks, source.maxBytes ?? 1024 * 1024)
    const parsed = read.ok ? safeParseJson(read.value) : read
    if (!parsed.ok) {
      const text = read.ok ? read.value : ''
      emit?.({ type: 'tool-input-error', toolCallId: scope.toolCallId, toolName: tool.id, input: text, errorText: parsed.error.message })
      return parsed
    }
    raw = parsed.value
  }

  const accepted = acceptInput(scope, raw)
  if (!accepted.ok) return accepted
  if (onInputAvailable) await callHook('onInputAvailable', onInputAvailable, hookOptions(scope, { input: accepted.value }), observe)
  return { ok: true, value: { raw: raw ?? {}, value: accepted.value } }
}
