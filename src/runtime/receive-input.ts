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

async function readChunks(
  scope: ToolCallScope,
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<Checked<string>> {
  const { tool, toolCallId, emit, observe, messages, signal } = scope
  const decoder = new TextDecoder()
  const parts: string[] = []
  let bytes = 0
  for await (const chunk of chunks) {
    bytes += typeof chunk === 'string' ? chunk.length : chunk.byteLength
    if (bytes > maxBytes) {
      return { ok: false, error: new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`) }
    }
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    if (text === '') continue
    parts.push(text)
    emit({ type: 'tool-input-delta', toolCallId, inputTextDelta: text })
    await callHook('onInputDelta', tool.options.onInputDelta, { toolCallId, messages, abortSignal: signal, inputTextDelta: text }, observe)
  }
  const tail = decoder.decode()
  if (tail !== '') {
    parts.push(tail)
    emit({ type: 'tool-input-delta', toolCallId, inputTextDelta: tail })
    await callHook('onInputDelta', tool.options.onInputDelta, { toolCallId, messages, abortSignal: signal, inputTextDelta: tail }, observe)
  }
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

/**
 * The input phase of a call: `tool-input-start` (and `onInputStart`), one `tool-input-delta`
 * (and `onInputDelta`) per chunk as it arrives, then `tool-input-available` (and
 * `onInputAvailable`) once the whole input parsed and validated, or `tool-input-error`.
 */
export async function receiveInput(scope: ToolCallScope, source: ToolInputSource): Promise<Checked<ReceivedInput>> {
  const { tool, toolCallId, emit, observe, messages, signal } = scope
  emit({ type: 'tool-input-start', toolCallId, toolName: tool.id })
  await callHook('onInputStart', tool.options.onInputStart, { toolCallId, messages, abortSignal: signal }, observe)

  let raw: unknown
  let text = ''
  if ('input' in source) {
    raw = source.input
  } else {
    const read = await readChunks(scope, source.chunks, source.maxBytes ?? 1024 * 1024)
    const parsed = read.ok ? parseJson((text = read.value)) : read
    if (!parsed.ok) {
      emit({ type: 'tool-input-error', toolCallId, toolName: tool.id, input: text, errorText: parsed.error.message })
      return parsed
    }
    raw = parsed.value
  }

  const checked = checkInput(tool.id, tool.schemas.input, raw)
  if (!checked.ok) {
    emit({ type: 'tool-input-error', toolCallId, toolName: tool.id, input: raw ?? null, errorText: checked.error.message })
    return checked
  }
  emit({ type: 'tool-input-available', toolCallId, toolName: tool.id, input: raw ?? {} })
  await callHook('onInputAvailable', tool.options.onInputAvailable, { toolCallId, messages, abortSignal: signal, input: checked.value }, observe)
  return { ok: true, value: { raw: raw ?? {}, value: checked.value } }
}
