import type { ToolDataEvent } from '../protocol/tool-event.ts'
import type { ToolCustomChunk, ToolStream } from '../tool/tool-execution-context.ts'
import type { ToolCallScope } from './tool-call-scope.ts'

const written = Promise.resolve()

/**
 * The chunk as it goes on the wire: only the fields of an AI SDK data part, since the AI SDK's
 * `uiMessageChunkSchema` is strict and a stray field would make every reader drop the stream.
 */
function toDataEvent(chunk: ToolCustomChunk): ToolDataEvent {
  const { type, data, id, transient } = (chunk ?? {}) as Partial<ToolCustomChunk>
  if (typeof type !== 'string' || !type.startsWith('data-')) {
    throw new TypeError(`writer.custom: the chunk's type must start with "data-" (an AI SDK data part), got ${JSON.stringify(type)}`)
  }
  if (type.startsWith('data-tool-')) throw new TypeError(`writer.custom: data-tool-* is toolroute's own namespace (its events); name the chunk otherwise, not ${type}`)
  if (id !== undefined && typeof id !== 'string') throw new TypeError('writer.custom: id must be a string')
  if (transient !== undefined && typeof transient !== 'boolean') throw new TypeError('writer.custom: transient must be a boolean')
  return { type, data, ...(id !== undefined && { id }), ...(transient !== undefined && { transient }) } as ToolDataEvent
}

/**
 * `context.writer` for one execution (SPEC §8): `write` emits `data-tool-output`, `custom` the
 * chunk as written. Once `ended()`, writing does nothing: nothing may land after `finish`.
 */
export function createToolStream(scope: ToolCallScope, ended: () => boolean): ToolStream {
  const own = scope.writer
  const write = (value: unknown): Promise<void> => {
    if (ended()) return written
    if (own) return Promise.resolve(own.write(value))
    if (scope.emit) scope.emit({ type: 'data-tool-output', data: { toolCallId: scope.toolCallId, output: value } })
    return written
  }
  // Async, so a chunk `toDataEvent` refuses rejects; the chunk is still emitted before `custom` returns.
  const custom = async (chunk: ToolCustomChunk): Promise<void> => {
    const event = toDataEvent(chunk)
    if (ended()) return
    if (own) return own.custom(event as ToolCustomChunk)
    if (event.transient) scope.emitTransient?.(event)
    else scope.emit?.(event)
  }
  // A WritableStream as Mastra's ToolStream is, so `stream.pipeTo(writer)` writes each chunk.
  const stream = new WritableStream<unknown>({ write: (chunk) => write(chunk) })
  return Object.assign(stream, { write, custom })
}
