import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { CallerOptions, ResolvedRequestContext } from './caller-options.ts'
import { headerNames } from '../protocol/header-names.ts'
import { safeParseJson } from '../runtime/safe-parse-json.ts'

/** A request's context, and what the app's resolver said of its principal (for `principalOf`). */
export interface RequestCaller {
  requestContext: Record<string, unknown>
  /** The principal the resolver returned beside the context; absent when it named none. */
  principal?: string | null
  /** Whether the resolver answered (its context, or its principal), rather than the header alone. */
  resolved?: boolean
}

/** The request context: from the app's resolver (verified auth) when it returns one, else `x-request-context`. */
export async function resolveRequestContext(c: Context, options: CallerOptions, headers: Headers = c.req.raw.headers): Promise<RequestCaller> {
  const value = options.resolveRequestContext ? await options.resolveRequestContext(c) : undefined
  if (value === undefined) return { requestContext: requestContextHeader(headers) }
  if (!isResolvedRequestContext(value)) return { requestContext: value, resolved: true }
  return { requestContext: value.requestContext ?? requestContextHeader(headers), principal: value.principal, resolved: true }
}

/**
 * `{ requestContext, principal }` and nothing else (any other object is a context). One whose
 * principal is not a string is refused, not read as a context whose runs would belong to nobody.
 */
function isResolvedRequestContext(value: Record<string, unknown> | ResolvedRequestContext): value is ResolvedRequestContext {
  if (Object.keys(value).length !== 2 || !('requestContext' in value) || !('principal' in value)) return false
  const { requestContext, principal } = value as Record<string, unknown>
  if (principal !== null && typeof principal !== 'string') throw new TypeError('resolveRequestContext returned a principal that is neither a string nor null')
  if (requestContext !== undefined && (typeof requestContext !== 'object' || requestContext === null || Array.isArray(requestContext))) {
    throw new TypeError('resolveRequestContext returned a requestContext that is not an object')
  }
  return true
}

/** The `x-request-context` header as an object (`{}` when absent). */
function requestContextHeader(headers: Headers): Record<string, unknown> {
  const header = headers.get(headerNames.requestContext) ?? undefined
  if (header === undefined || header.trim() === '') return {}
  // Depth-guarded like a body: a context nested thousands deep would overflow whatever stores it.
  const read = safeParseJson(header, headerNames.requestContext)
  if (!read.ok) throw new ToolrouteError('REQUEST_CONTEXT_VALIDATION_FAILED', read.error.message)
  if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) {
    throw new ToolrouteError('REQUEST_CONTEXT_VALIDATION_FAILED', 'x-request-context must be a JSON object')
  }
  return read.value as Record<string, unknown>
}
