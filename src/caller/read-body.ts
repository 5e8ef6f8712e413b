import { ToolrouteError } from '../errors/toolroute-error.ts'
import { safeParseJson } from '../runtime/safe-parse-json.ts'

/** What `readBody` hands back: the bytes as they came, their text, or their JSON (`undefined` for an empty body). */
export type BodyFormat = 'bytes' | 'text' | 'json'

/** A body read: `text` is its text (for `bytes`, left to the caller to decode). */
export type ReadBodyResult<F extends BodyFormat> =
  | { ok: true; body: F extends 'bytes' ? Uint8Array : F extends 'text' ? string : unknown; text: F extends 'bytes' ? undefined : string }
  | { ok: false; error: ToolrouteError }

/** The largest input a call accepts unless `maxInputBytes` says otherwise (HTTP and MCP alike): 1 MiB. */
export const defaultMaxInputBytes = 1024 * 1024

/** Up to this declared length, a body is read in one call: it arrives as one chunk anyway. */
export const wholeBodyBytes = 64 * 1024

/** The most bytes one UTF-16 unit of text can take in UTF-8. */
const maxBytesPerUnit = 3

/**
 * The one reader of a whole request body (HTTP's, MCP's, the Durable Objects'): refused as
 * `PAYLOAD_TOO_LARGE` past `maxBytes` (declared larger: unread; else the rest cancelled), JSON
 * through `safeParseJson` (the depth guard). The media type is the surface's to check. A small
 * body of declared length is read by `request.text()`: in workerd much cheaper than a stream reader.
 *
 * @example
 * const read = await readBody(request, { maxBytes: 1024 * 1024, as: 'json' })
 * if (!read.ok) throw read.error
 */
export async function readBody<F extends BodyFormat>(request: Request, options: { maxBytes: number; as: F }): Promise<ReadBodyResult<F>> {
  const { maxBytes, as } = options
  const declared = request.headers.get('content-length')
  const length = declared === null ? Number.NaN : Number(declared)
  if (length > maxBytes) return tooLarge(maxBytes)
  let text: string
  if (as !== 'bytes' && length <= wholeBodyBytes) {
    text = length > 0 ? await request.text() : ''
    // A body longer than it declared (possible only in process): counted exactly when it might be over.
    if (text.length > maxBytes || (text.length * maxBytesPerUnit > maxBytes && new TextEncoder().encode(text).byteLength > maxBytes)) return tooLarge(maxBytes)
  } else {
    const bytes = await readBytes(request, maxBytes)
    if (!bytes) return tooLarge(maxBytes)
    if (as === 'bytes') return { ok: true, body: bytes, text: undefined } as ReadBodyResult<F>
    text = new TextDecoder().decode(bytes)
  }
  if (as === 'text') return { ok: true, body: text, text } as ReadBodyResult<F>
  const parsed = safeParseJson(text)
  return (parsed.ok ? { ok: true, body: parsed.value, text } : parsed) as ReadBodyResult<F>
}

function tooLarge(maxBytes: number): { ok: false; error: ToolrouteError } {
  return { ok: false, error: new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes`) }
}

/** The body's bytes, counted as they arrive: `undefined` once past `maxBytes`, the rest then cancelled. */
async function readBytes(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let length = 0
  try {
    while (true) {
      const { done, value } = await reader.read()
      if (done) break
      length += value.byteLength
      if (length > maxBytes) {
        await reader.cancel().catch(() => {})
        return undefined
      }
      chunks.push(value)
    }
  } finally {
    reader.releaseLock()
  }
  if (chunks.length === 1) return chunks[0]!
  const bytes = new Uint8Array(length)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}
