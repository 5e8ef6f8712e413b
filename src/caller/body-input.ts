import type { ToolInputSource } from '../runtime/receive-input.ts'
import { readBody, wholeBodyBytes } from './read-body.ts'
import { streamChunks } from './stream-chunks.ts'

/**
 * Where a call's input comes from over HTTP: a small body of declared length read whole (one
 * delta, no stream machinery), any other taken chunk by chunk as it arrives, counted against `maxBytes`.
 */
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
