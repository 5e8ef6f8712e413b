import { ToolrouteError } from '../errors/toolroute-error.ts'
import { callHook, withAbortSignal } from './call-hook.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { safeParseJson } from './safe-parse-json.ts'
import { checkInput, type Checked } from './validate-call.ts'

/** A call's input: a parsed value, JSON text read whole (`readBody`), or JSON text in chunks, held to the surface's `maxBytes` here. */
export type ToolInputSource = { input: unknown } | { text: string } | { chunks: AsyncIterable<Uint8Array | string>; maxBytes: number }

/** What came in, for the run record: the raw JSON value and the validated one. */
export interface ReceivedInput {
  raw: unknown
  value: unknown
}

function hookOptions<T extends object = {}>(scope: ToolCallScope, fields?: T) {
  return withAbortSignal(scope, { toolCallId: scope.toolCallId, messages: scope.messages, ...fields } as { toolCallId: string; messages: unknown[] } & T)
}

/** A piece of the input's text: its `tool-input-delta`, and `onInputDelta`. */
async function inputDelta(scope: ToolCallScope, text: string): Promise<void> {
  scope.emit?.({ type: 'tool-input-delta', toolCallId: scope.toolCallId, inputTextDelta: text })
  const { onInputDelta } = scope.tool.options
  if (onInputDelta) await callHook('onInputDelta', onInputDelta, hookOptions(scope, { inputTextDelta: text }), scope.observe)
}

/** Reads a body's chunks, a delta each, counted against `maxBytes`. */
async function readChunks(scope: ToolCallScope, chunks: AsyncIterable<Uint8Array | string>, maxBytes: number): Promise<Checked<string>> {
  // Made on the first byte chunk: a chunk may be text already.
  let decoder: TextDecoder | undefined
  const parts: string[] = []
  let bytes = 0
  const iterator = chunks[Symbol.asyncIterator]()
  while (true) {
    const next = await iterator.next()
    if (next.done) break
    const chunk = next.value
    bytes += typeof chunk === 'string' ? chunk.length : chunk.byteLength
    if (bytes > maxBytes) return drainOverLimit(scope, iterator, maxBytes)
    const text = typeof chunk === 'string' ? chunk : (decoder ??= new TextDecoder()).decode(chunk, { stream: true })
    parts.push(text)
    if (text !== '') await inputDelta(scope, text)
  }
  const tail = decoder?.decode() ?? ''
  parts.push(tail)
  if (tail !== '') await inputDelta(scope, tail)
  return { ok: true, value: parts.join('') }
}

/** How much more of a body past the limit is read (and dropped) before it is cut off, in limits. */
const drainLimits = 4

/**
 * A body past the limit: `tool-input-error` at once, then the rest read and dropped (up to
 * `drainLimits` more limits) before the step ends: cancelling a body its client still sends made
 * `wrangler dev` end the answer at random (a `503`, or a stream cut mid-delta).
 */
async function drainOverLimit(scope: ToolCallScope, iterator: AsyncIterator<Uint8Array | string>, maxBytes: number): Promise<Checked<string>> {
  const failure = refuseInput(scope, '', { ok: false, error: new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`) })
  let drained = 0
  try {
    while (drained <= drainLimits * maxBytes) {
      const next = await iterator.next()
      if (next.done) return failure
      drained += typeof next.value === 'string' ? next.value.length : next.value.byteLength
    }
  } catch {
    // The client went away while sending: nothing left to drain.
  }
  // Cancels a stream's body, so the runtime does not hold the connection for a body nobody reads.
  await iterator.return?.().catch(() => {})
  return failure
}

/** Emits `tool-input-error` for `input` (the value, its text, or `''` for a body never read) and returns the failure. */
function refuseInput<T extends { ok: false; error: ToolrouteError }>(scope: ToolCallScope, input: unknown, failure: T): T {
  scope.emit?.({ type: 'tool-input-error', toolCallId: scope.toolCallId, toolName: scope.tool.id, input, errorText: failure.error.message })
  return failure
}

/** Validates a parsed input and emits `tool-input-available` or `tool-input-error` (no hooks). */
function acceptInput(scope: ToolCallScope, raw: unknown): Checked<ReceivedInput> {
  const checked = checkInput(scope.tool.id, scope.tool.schemas.input, raw)
  if (!checked.ok) return refuseInput(scope, raw ?? null, checked)
  scope.emit?.({ type: 'tool-input-available', toolCallId: scope.toolCallId, toolName: scope.tool.id, input: raw ?? {} })
  return { ok: true, value: { raw: raw ?? {}, value: checked.value } }
}

/** The whole input's text, parsed (`INVALID_JSON`, with `tool-input-error`) then validated. */
function acceptText(scope: ToolCallScope, text: string): Checked<ReceivedInput> {
  const parsed = safeParseJson(text)
  return parsed.ok ? acceptInput(scope, parsed.value) : refuseInput(scope, text, parsed)
}

/**
 * The input phase of a call, each event with its hook (only a hook reads the lazy `scope.observe`):
 * `tool-input-start`, a `tool-input-delta` per chunk, then `tool-input-available` or `tool-input-error`.
 */
export async function receiveInput(scope: ToolCallScope, source: ToolInputSource): Promise<Checked<ReceivedInput>> {
  const { tool, emit } = scope
  const { onInputStart, onInputAvailable } = tool.options
  emit?.({ type: 'tool-input-start', toolCallId: scope.toolCallId, toolName: tool.id })
  if (onInputStart) await callHook('onInputStart', onInputStart, hookOptions(scope), scope.observe)
  let result: Checked<ReceivedInput>
  if ('input' in source) {
    result = acceptInput(scope, source.input)
  } else if ('text' in source) {
    if (source.text !== '') await inputDelta(scope, source.text)
    result = acceptText(scope, source.text)
  } else {
    const read = await readChunks(scope, source.chunks, source.maxBytes)
    // A body past the limit has already told its error (drainOverLimit).
    result = read.ok ? acceptText(scope, read.value) : read
  }
  if (result.ok && onInputAvailable) await callHook('onInputAvailable', onInputAvailable, hookOptions(scope, { input: result.value.value }), scope.observe)
  return result
}
