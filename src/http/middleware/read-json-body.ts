import type { Context } from 'hono'
import { ToolrouteError } from '../../errors/toolroute-error.ts'

/** Whether the request declares a JSON body (`application/json`, `application/*+json`). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/**
 * Refuses a body that declares more than `maxBytes` (413) or is not JSON (415), before reading
 * it, in the spec's order: size, then media type.
 */
export function checkBodyHeaders(c: Context, maxBytes: number, { required }: { required: boolean }): void {
  const length = c.req.header('content-length')
  const hasBody = length !== undefined ? Number(length) > 0 : c.req.raw.body !== null
  if (!hasBody && !required) return
  if (length !== undefined && Number(length) > maxBytes) {
    throw new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`)
  }
  if (!isJsonMediaType(c.req.header('content-type'))) {
    throw new ToolrouteError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json')
  }
}

/** The body's chunks, counted against `maxBytes` as they arrive (a chunked body has no length up front). */
export async function* bodyChunks(request: Request): AsyncGenerator<Uint8Array> {
  if (!request.body) return
  const reader = request.body.getReader()
  try {
    while (true) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}

/** Reads a small JSON body of the framework's own routes (decline, resume). Empty counts as `{}`. */
export async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  checkBodyHeaders(c, maxBytes, { required: false })
  const text = await c.req.text()
  if (new TextEncoder().encode(text).byteLength > maxBytes) {
    throw new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`)
  }
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ToolrouteError('INVALID_JSON', `Request body is not valid JSON: ${(error as Error).message}`)
  }
}
