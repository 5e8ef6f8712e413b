import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { principalOf } from '../caller/principal-of.ts'
import { resolveRequestContext, type RequestCaller } from '../caller/resolve-request-context.ts'
import type { CallerOptions } from '../caller/caller-options.ts'
import type { McpCaller } from './mcp-caller.ts'

/**
 * The caller of an MCP request, by the HTTP routes' rules, `sessionId` the principal of last resort.
 * A malformed context is answered per call, `isError`.
 */
export async function resolveMcpCaller(c: Context, options: CallerOptions, sessionId: string | undefined): Promise<McpCaller> {
  let resolved: RequestCaller = { requestContext: {} }
  let error: McpCaller['error']
  try {
    resolved = await resolveRequestContext(c, options)
  } catch (caught) {
    if (!ToolrouteError.isInstance(caught)) throw caught
    error = caught.toJSON().error
  }
  const { requestContext } = resolved
  const principal = await principalOf(c, options, requestContext, resolved, sessionId)
  return { requestContext, principal, ...(error ? { error } : {}) }
}
