import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { CallerOptions } from './caller-options.ts'
import { headerNames } from '../protocol/header-names.ts'
import { safeParseJson } from '../runtime/safe-parse-json.ts'

/**
 * The request context of a request: from the app's resolver (verified auth) when it returns
 * one, else from the `x-request-context` header (a JSON object). `headers` is the request's,
 * when the caller already holds them (see `checkBodyHeaders`).
 */
export function resolveRequestContext(
  c: Context,
  options: CallerOptions,
  headers: Headers = c.req.raw.headers,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (!options.resolveRequestContext) return requestContextHeader(headers)
  const resolved = options.resolveRequestContext(c)
  if (resolved instanceof Promise) return resolved.then((value) => value ?? requestContextHeader(headers))
  return resolved ?? requestContextHeader(headers)
}

/** The `x-request-context` header as an object (`{}` when absent). */
function requestContextHeader(headers: Headers): Record<string, unknown> {
  const header = headers.get(headerNames.requestContext) ?? undefined
  if (header === undefined || header.trim() === '') return {}
  // Depth-guarded like a body: a context nested thousands deep would overflow whatever stores it.
  const read = safeParseJson(header, headerNames.requestContext)
  if (!read.ok) throw new ToolrouteError('REQUEST_CONTEXT_VALIDATION_FAILED', read.error.message)
  const parsed = read.value
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ToolrouteError('REQUEST_CONTEXT_VALIDATION_FAILED', 'x-request-context must be a JSON object')
  }
  return parsed as Record<string, unknown>
}
