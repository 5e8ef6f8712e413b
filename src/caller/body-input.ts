import type { ToolInputSource } from '../runtime/receive-input.ts'
import { readBody, wholeBodyBytes } from './read-body.ts'

/** A call's input over HTTP: a small body of declared length read whole (one delta), any other chunk by chunk. */
export async function bodyInput(request: Request, contentLength: string | undefined, maxBytes: number): Promise<ToolInputSource> {
  // Checked before touching `request.body`: in workerd that getter builds a stream object.
  const length = Number(contentLength ?? Number.NaN)
  if (length <= wholeBodyBytes) {
    const read = await readBody(request, { maxBytes, as: 'text' })
    if (!read.ok) throw read.error
    return { text: read.text }
  }
  return request.body ? { chunks: streamChunks(request.body), maxBytes } : { text: '' }
}

async function* streamChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  try {
    while (true) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    // Left early (over the limit): cancel, so the runtime does not hold the connection for a body
    // nobody reads (a no-op on a body read to its end).
    await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}
