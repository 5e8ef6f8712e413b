import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { safeParseJson } from '../runtime/safe-parse-json.ts'

/** Whether the request declares a JSON body (`application/json`, `application/*+json`). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false
  if (contentType === 'application/json') return true // what nearly every caller sends
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/** A body declaring up to this many limits is read and dropped before its 413; a larger one is refused unread. */
const drainLimits = 4

/**
 * Refuses a body that declares more than `maxBytes` (413) or is not JSON (415), before reading
 * it, in the spec's order: size, then media type. Returns a promise only to refuse a body it
 * drains first: answered while its client still sent it, a 413 met the client's write as a
 * broken pipe (`fetch failed: EPIPE` in the load test), so a body up to a few limits is read
 * to its end first. Await it when it is one. `length` and `type` are the request's
 * `content-length` and `content-type` headers, which the caller has read: in workerd each read of
 * `request.headers` and each `get` on it is a call into the runtime, so a route reads
 * `request.headers` once and each header it needs once.
 */
export function checkBodyHeaders(
  c: Context,
  maxBytes: number,
  { required, length, type }: { required: boolean; length: string | undefined; type: string | undefined },
): void | Promise<never> {
  const hasBody = length !== undefined ? Number(length) > 0 : c.req.raw.body !== null
  if (!hasBody && !required) return
  if (length !== undefined && Number(length) > maxBytes) {
    const refusal = new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`)
    if (Number(length) > drainLimits * maxBytes || !c.req.raw.body) throw refusal
    return drain(c.req.raw.body).then(() => {
      throw refusal
    })
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

/** Up to this declared length, a body is read in one go: it arrives as one chunk anyway. */
const wholeBodyBytes = 64 * 1024

/** A request body for the input phase: read whole (one text chunk), or a stream's chunks as they arrive. */
export type BodyChunks = Iterable<Uint8Array | string> | AsyncIterable<Uint8Array>

/**
 * The body's chunks as they arrive, for the input phase to count against the limit (a chunked
 * body has no length up front). A small body with a declared length (`contentLength`, the header
 * the caller read) is read in one call and decoded by the runtime: a string, the one chunk of a
 * body read whole. That is its fast path, where a stream reader, an async generator and a
 * TextDecoder cost more than the rest of a small call's validation.
 */
export function bodyChunks(request: Request, contentLength: string | undefined): BodyChunks | Promise<string> {
  // Checked before touching `request.body`: in workerd that getter builds a stream object.
  const length = Number(contentLength ?? Number.NaN)
  if (length <= wholeBodyBytes) return length > 0 ? request.text() : []
  return request.body ? streamChunks(request.body) : []
}

async function* streamChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  let finished = false
  try {
    while (true) {
      const { done, value } = await reader.read()
      if (done) {
        finished = true
        return
      }
      yield value
    }
  } finally {
    // Left early (a body over the limit): cancel it, so the runtime knows the rest will never be
    // read instead of holding the connection for a body nobody consumes.
    if (!finished) await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}

/** Reads a small JSON body of the framework's own routes (decline, resume). Empty counts as `{}`. */
export async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  // A POST with neither content-length nor a JSON type (`curl -X POST`): workerd hands it a null
  // body, Deno an empty stream. Read first, so "no body" is found the same way on both, and
  // only a body that is really there must be JSON.
  const headers = c.req.raw.headers
  const length = headers.get('content-length') ?? undefined
  const type = headers.get('content-type') ?? undefined
  const undeclared = length === undefined && !isJsonMediaType(type)
  if (!undeclared) await checkBodyHeaders(c, maxBytes, { required: false, length, type })
  const text = await c.req.text()
  if (new TextEncoder().encode(text).byteLength > maxBytes) {
    throw new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`)
  }
  if (undeclared && text !== '') throw new ToolrouteError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json')
  const parsed = safeParseJson(text)
  if (!parsed.ok) throw parsed.error
  return parsed.value === undefined ? {} : parsed.value
}
