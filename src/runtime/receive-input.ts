import { ToolrouteError } from '../errors/toolroute-error.ts'
import { callHook } from './call-hook.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { checkInput, type Checked } from './validate-call.ts'

/** Where a call's input comes from: a value already parsed, or JSON text arriving in chunks. */
export type ToolInputSource =
  | { input: unknown }
  | { chunks: AsyncIterable<Uint8Array | string>; maxBytes?: number }

/** What came in, for the run record: the raw JSON value and the validated one. */
export interface ReceivedInput {
  raw: unknown
  value: unknown
}

function hookOptions(scope: ToolCallScope) {
  return { toolCallId: scope.toolCallId, messages: scope.messages, abortSignal: scope.signal }
}

async function readChunks(
  scope: ToolCallScope,
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<Checked<string>> {
  const { tool, emit, observe } = scope
  const onInputDelta = tool.options.onInputDelta
  const decoder = new TextDecoder()
  const parts: string[] = []
  let bytes = 0
  const delta = async (text: string) => {
    parts.push(text)
    emit?.({ type: 'tool-input-delta', toolCallId: scope.toolCallId, inputTextDelta: text })
    if (onInputDelta) await callHook('onInputDelta', onInputDelta, { ...hookOptions(scope), inputTextDelta: text }, observe)
  }
  for await (const chunk of chunks) {
    bytes += typeof chunk === 'string' ? chunk.length : chunk.byteLength
    if (bytes > maxBytes) {
      return { ok: false, error: new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`) }
    }
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    if (text !== '') await delta(text)
  }
  const tail = decoder.decode()
  if (tail !== '') await delta(tail)
  return { ok: true, value: parts.join('') }
}

function parseJson(text: string): Checked<unknown> {
  if (text.trim() === '') return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, error: new ToolrouteError('INVALID_JSON', `Request body is not valid JSON: ${(error as Error).message}`) }
  }
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
    const parsed = read.ok ? parseJson(read.value) : read
    if (!parsed.ok) {
      const text = read.ok ? read.value : ''
      emit?.({ type: 'tool-input-error', toolCallId: scope.toolCallId, toolName: tool.id, input: text, errorText: parsed.error.message })
      return parsed
    }
    raw = parsed.value
  }

  const accepted = acceptInput(scope, raw)
  if (!accepted.ok) return accepted
  if (onInputAvailable) await callHook('onInputAvailable', onInputAvailable, { ...hookOptions(scope), input: accepted.value }, observe)
  return { ok: true, value: { raw: raw ?? {}, value: accepted.value } }
}
