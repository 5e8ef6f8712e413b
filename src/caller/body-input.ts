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
  return request.body ? { chunks: request.body, maxBytes } : { text: '' }
}

