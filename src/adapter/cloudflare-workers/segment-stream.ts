import { ToolrouteError } from '../../errors/toolroute-error.ts'
import type { ErrorBody } from '../../protocol/error-codes.ts'
import type { SequencedEvent } from '../../protocol/tool-event.ts'
import type { RunRecord } from '../../runs/run-record.ts'

/**
 * Run steps cross from a Durable Object to the Worker as NDJSON byte streams (what RPC carries):
 * one `{"event":…}` line per stored event, then `{"run":…}` with the run where the step left it
 * (`settled`, read once the events are over).
 */
type Line = { event: SequencedEvent } | { run: RunRecord }

export function encodeSegmentStream(
  events: AsyncIterable<SequencedEvent>,
  settled: () => Promise<RunRecord>,
  onCancel: () => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const iterator = events[Symbol.asyncIterator]()
  const line = (value: Line) => encoder.encode(`${JSON.stringify(value)}\n`)
  let done = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return
      const next = await iterator.next()
      if (!next.done) return controller.enqueue(line({ event: next.value }))
      done = true
      controller.enqueue(line({ run: await settled() }))
      controller.close()
    },
    async cancel() {
      onCancel()
      await iterator.return?.()
    },
  })
}

/** Reads a segment stream: its events as they come; `settled` once they have been read to the end. */
export function decodeSegmentStream(stream: ReadableStream<Uint8Array>): {
  events: AsyncIterable<SequencedEvent>
  settled: Promise<RunRecord>
  cancel(): void
} {
  let reader: ReadableStreamDefaultReader<string> | undefined
  let resolveRun!: (run: RunRecord) => void
  let rejectRun!: (error: unknown) => void
  const settled = new Promise<RunRecord>((resolve, reject) => ((resolveRun = resolve), (rejectRun = reject)))
  settled.catch(() => {})
  async function* events(): AsyncGenerator<SequencedEvent> {
    reader = stream.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    let finished = false
    try {
      while (true) {
        const { done, value } = await reader!.read()
        if (done) break
        buffer += value
        let newline: number
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = JSON.parse(buffer.slice(0, newline)) as Line
          buffer = buffer.slice(newline + 1)
          if ('event' in line) yield line.event
          else resolveRun(line.run)
        }
      }
      finished = true
      rejectRun(new Error('The run stream ended without its final state'))
    } finally {
      if (!finished) await reader!.cancel().catch(() => {})
    }
  }
  return {
    events: events(),
    settled,
    cancel: () => void (reader ?? stream).cancel().catch(() => {}),
  }
}

/** RPC does not carry error classes: failures cross as the wire body and become errors again. */
export type RpcResult<T> = { ok: true; value: T } | ({ ok: false } & ErrorBody)

/** Runs an RPC method's `work`: its value, or its failure as the wire body. */
export async function rpc<T>(work: () => Promise<T>): Promise<RpcResult<T>> {
  try {
    return { ok: true, value: await work() }
  } catch (error) {
    if (ToolrouteError.isInstance(error)) return { ok: false, ...error.toJSON() }
    return { ok: false, error: { code: 'EXECUTION_FAILED', message: error instanceof Error ? error.message : String(error) } }
  }
}

export function fromRpc<T>(result: RpcResult<T>): T {
  if (result.ok) return result.value
  throw new ToolrouteError(result.error.code, result.error.message, result.error.issues ? { issues: result.error.issues } : undefined)
}
