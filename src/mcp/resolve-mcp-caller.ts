import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { principalOf } from '../caller/principal-of.ts'
import { resolveRequestContext } from '../caller/resolve-request-context.ts'
import type { CallerOptions } from '../caller/caller-options.ts'
import type { McpCaller } from './mcp-caller.ts'

/**
 * The caller of an MCP request, from the same resolver or `x-request-context` header and the
 * same principal rule as the HTTP routes. A malformed header does not refuse the request: MCP
 * answers it per call, as an `isError` result naming REQUEST_CONTEXT_VALIDATION_FAILED.
 */
export async function resolveMcpCaller(c: Context, options: CallerOptions): Promise<McpCaller> {
  let requestContext: Record<string, unknown> = {}
  let error: McpCaller['error']
  try {
    requestContext = await resolveRequestContext(c, options)
  } catch (caught) {
    if (!ToolrouteError.isInstance(caught)) throw caught
    error = caught.toJSON().error
  }
  const principal = await principalOf(c, options, requestContext)
  return { requestContext, principal, ...(error ? { error } : {}) }
}
