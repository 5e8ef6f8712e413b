import { isLoopbackHost } from '../caller/is-loopback-host.ts'
import { jsonRpcError } from './json-rpc-error.ts'

/**
 * The MCP transport's DNS-rebinding rule: a request whose `Origin` is not allowed gets 403 first.
 * Allowed: `allowedOrigins`, else the app's own origin and, when `servedLocally`, any loopback one.
 * The own origin is read from the request, sound because a local app refuses every foreign `Host`
 * first (http/middleware/check-host.ts) and a deployed one is reached only under its routed names.
 */
export function checkMcpOrigin(request: Request, allowedOrigins: readonly string[] | undefined, servedLocally = false): Response | undefined {
  const origin = request.headers.get('origin')
  if (origin === null) return undefined
  if (allowedOrigins) {
    if (allowedOrigins.includes(origin)) return undefined
  } else {
    if (origin === new URL(request.url).origin) return undefined
    if (servedLocally && URL.canParse(origin) && isLoopbackHost(new URL(origin).hostname)) return undefined
  }
  return jsonRpcError(403, -32000, `Forbidden: Origin ${origin} is not allowed`)
}
