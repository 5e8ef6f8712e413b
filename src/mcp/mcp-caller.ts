import { z } from 'zod'
import type { ErrorBody } from '../protocol/error-codes.ts'

/** The prefix of every header toolroute sets between its own parts (this one, the Worker's to its session objects). */
export const internalHeaderPrefix = 'x-toolroute-'
const mcpCallerHeader = `${internalHeaderPrefix}mcp-caller`

const callerSchema = z.object({
  /** The request context as resolved; each tool validates it against its own schema. */
  requestContext: z.record(z.string(), z.unknown()),
  /** Why the request context could not be read (a malformed `x-request-context`), if it could not. */
  error: z.object({ code: z.custom<ErrorBody['error']['code']>((value) => typeof value === 'string'), message: z.string() }).loose().optional(),
  /** Who owns the runs this request creates, and the session it opens. */
  principal: z.string().nullable(),
})

/** Who sent an MCP request, as the HTTP layer resolved it, carried in an internal header (`withCaller`). */
export type McpCaller = z.infer<typeof callerSchema>

/**
 * A copy of `request` carrying `caller` (and `body`, already read), stripped of any `x-toolroute-*`
 * header the client sent (SPEC §12), so a client names neither the object it lands in nor who it
 * is. Only `/mcp` strips them: the tool and run routes read no such header.
 */
export function withCaller(request: Request, caller: McpCaller, body: string | undefined, extra: Record<string, string> = {}): Request {
  const headers = new Headers(request.headers)
  for (const name of [...headers.keys()]) if (name.startsWith(internalHeaderPrefix)) headers.delete(name)
  // Header values are bytes: the JSON is percent-encoded so any Unicode in the context survives.
  headers.set(mcpCallerHeader, encodeURIComponent(JSON.stringify(caller)))
  for (const [name, value] of Object.entries(extra)) headers.set(name, value)
  // The client's signal goes with it: the SDK aborts a call whose request the client dropped.
  return new Request(request.url, { method: request.method, headers, signal: request.signal, ...(body !== undefined ? { body } : {}) })
}

/** The caller of a request, from its headers (a `Headers` or the SDK's lower-cased record). */
export function readCaller(headers: Headers | Record<string, string | string[] | undefined> | undefined): McpCaller {
  const raw = headers instanceof Headers ? headers.get(mcpCallerHeader) : headers?.[mcpCallerHeader]
  const nobody: McpCaller = { requestContext: {}, principal: null }
  if (typeof raw !== 'string') return nobody
  try {
    const parsed = callerSchema.safeParse(JSON.parse(decodeURIComponent(raw)))
    return parsed.success ? parsed.data : nobody
  } catch {
    return nobody
  }
}
