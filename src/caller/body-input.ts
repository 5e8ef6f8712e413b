import type { ToolInputSource } from '../runtime/receive-input.ts'
import { readBody, wholeBodyBytes } from './read-body.ts'
import { streamChunks } from './stream-chunks.ts'

/**
 * Where a tool call's input comes from over HTTP: a small body with a declared length read whole
 * (`readBody`: one delta, and no stream machinery on the fast path), any other body taken chunk
 * by chunk as it arrives (a delta each), counted against `maxBytes` by the input phase.
 * `contentLength` is the header the caller read.
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
