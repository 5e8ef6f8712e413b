import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { isJsonMediaType } from './is-json-media-type.ts'

/** A body declaring up to this many limits is read and dropped before its 413; a larger one is refused unread. */
const drainLimits = 4

/**
 * Refuses a body that declares more than `maxBytes` (413) or is not JSON (415), before reading
 * it, in the spec's order: size, then media type. A body up to a few limits over is read to its
 * end before its 413: answered while its client still sent it, a 413 met the client's write as
 * a broken pipe (`fetch failed: EPIPE` in the load test). `length` and `type` are the request's
 * `content-length` and `content-type` headers, which the caller has read: in workerd each read of
 * `request.headers` and each `get` on it is a call into the runtime, so a route reads
 * `request.headers` once and each header it needs once.
 */
export async function checkBodyHeaders(
  c: Context,
  maxBytes: number,
  { required, length, type }: { required: boolean; length: string | undefined; type: string | undefined },
): Promise<void> {
  const hasBody = length !== undefined ? Number(length) > 0 : c.req.raw.body !== null
  if (!hasBody && !required) return
  if (length !== undefined && Number(length) > maxBytes) {
    const refusal = new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`)
    if (Number(length) > drainLimits * maxBytes || !c.req.raw.body) throw refusal
    await drain(c.req.raw.body)
    throw refusal
  }
  if (!isJsonMediaType(type)) {
    throw new ToolrouteError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json')
  }
}

async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader()
  try {
    while (!(await reader.read()).done);
  } catch {
    // The client went away: nothing left to read.
  }
}
