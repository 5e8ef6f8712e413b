import { z } from 'zod'
import type { ErrorBody } from '../errors/toolroute-error.ts'

/**
 * Who sent an MCP request, as the HTTP layer resolved it (auth, request context resolver or
 * `x-request-context`, principal). It travels with the request to wherever the session lives
 * (this process or a Durable Object), in an internal header the handler always overwrites, so a
 * client can never set it.
 */
export interface McpCaller {
  /** The request context as resolved; each tool validates it against its own schema. */
  requestContext: Record<string, unknown>
  /** Why the request context could not be read (a malformed `x-request-context`), if it could not. */
  error?: ErrorBody['error']
  /** Who owns the runs this request creates, and the session it opens. */
  principal: string | null
}

export const mcpCallerHeader = 'x-toolroute-mcp-caller'

const callerSchema = z.object({
  requestContext: z.record(z.string(), z.unknown()),
  error: z
    .object({ code: z.custom<ErrorBody['error']['code']>((value) => typeof value === 'string'), message: z.string() })
    .loose()
    .optional(),
  principal: z.string().nullable(),
})

/** A copy of `request` carrying `caller` (and `body`, already read by the handler). */
export function withCaller(request: Request, caller: McpCaller, body: string | undefined, extra: Record<string, string> = {}): Request {
  const headers = new Headers(request.headers)
  // Header values are bytes: the JSON is percent-encoded so any Unicode in the context survives.
  headers.set(mcpCallerHeader, encodeURIComponent(JSON.stringify(caller)))
  for (const [name, value] of Object.entries(extra)) headers.set(name, value)
  return new Request(request.url, { method: request.method, headers, ...(body !== undefined ? { body } : {}) })
}

/** The caller of a request, from its headers (a `Headers` or the SDK's lower-cased record). */
export function readCaller(headers: Headers | Record<string, string | string[] | undefined> | undefined): McpCaller {
  const raw = headers instanceof Headers ? headers.get(mcpCallerHeader) : headers?.[mcpCallerHeader]
  const nobody: McpCaller = { requestContext: {}, principal: null }
  if (typeof raw !== 'string') return nobody
  try {
    const parsed = callerSchema.safeParse(JSON.parse(decodeURIComponent(raw)))
    return parsed.success ? (parsed.data as McpCaller) : nobody
  } catch {
    return nobody
  }
}
