import type { Context } from 'hono'
import { checkBodyHeaders } from './check-body-headers.ts'
import { isJsonMediaType } from './is-json-media-type.ts'
import { readBody } from './read-body.ts'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { safeParseJson } from '../runtime/safe-parse-json.ts'

/** Reads a small JSON body of the framework's own routes (decline, resume, Mastra's execute). Empty counts as `{}`. */
export async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  // A POST with neither content-length nor a JSON type (`curl -X POST`) has a null body in workerd,
  // an empty stream in Deno: read first, so only a body really there must be JSON.
  const headers = c.req.raw.headers
  const length = headers.get('content-length') ?? undefined
  const type = headers.get('content-type') ?? undefined
  const undeclared = length === undefined && !isJsonMediaType(type)
  if (!undeclared) await checkBodyHeaders(c, maxBytes, { required: false, length, type })
  const read = await readBody(c.req.raw, { maxBytes, as: 'text' })
  if (!read.ok) throw read.error
  if (undeclared && read.text !== '') throw new ToolrouteError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json')
  const parsed = safeParseJson(read.text)
  if (!parsed.ok) throw parsed.error
  return parsed.value === undefined ? {} : parsed.value
}
