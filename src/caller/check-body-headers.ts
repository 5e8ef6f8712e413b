import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { isJsonMediaType } from './is-json-media-type.ts'

/** A body declaring up to this many limits is read and dropped before its 413; a larger one is refused unread. */
const drainLimits = 4

/**
 * Refuses, unread, a body declaring more than `maxBytes` (413) or not JSON (415), in the spec's order.
 * A 413 answered while the client still sends meets its write as a broken pipe (EPIPE), hence the drain.
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
    // Read and dropped; a client that went away leaves nothing to read.
    await c.req.raw.body.pipeTo(new WritableStream()).catch(() => {})
    throw refusal
  }
  if (!isJsonMediaType(type)) throw new ToolrouteError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json')
}
