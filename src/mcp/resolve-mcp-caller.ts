import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { principalOf } from '../caller/principal-of.ts'
import { resolveRequestContext, type RequestCaller } from '../caller/resolve-request-context.ts'
import type { CallerOptions } from '../caller/caller-options.ts'
import type { McpCaller } from './mcp-caller.ts'

/** The caller of an MCP request, by the HTTP routes' rules, `sessionId` the principal of last resort. A malformed context is answered per call, `isError`. */
export async function resolveMcpCaller(c: Context, options: CallerOptions, sessionId: string | undefined): Promise<McpCaller> {
  const resolved: RequestCaller & Pick<McpCaller, 'error'> = await resolveRequestContext(c, options).catch((caught: unknown) => {
    if (!ToolrouteError.isInstance(caught)) throw caught
    return { requestContext: {}, error: caught.toJSON().error }
  })
  const { requestContext, error } = resolved
  const principal = await principalOf(c, options, requestContext, resolved, sessionId)
  return { requestContext, principal, ...(error ? { error } : {}) }
}
