import { isLoopbackHost } from '../caller/is-loopback-host.ts'
import { jsonRpcError } from './json-rpc-error.ts'

/**
 * The MCP transport's DNS-rebinding rule: a request with an `Origin` that is not allowed gets 403
 * before anything else runs. Allowed: `allowedOrigins` when given, else the app's own origin and,
 * for an app served locally (`servedLocally`, which no request decides), any origin of this
 * machine (a browser page on another port). The own origin is read from the request, which is
 * sound because its `Host` is checked wherever a request could lie about it: a locally served app
 * refuses every foreign `Host` before this runs (http/middleware/check-host.ts), and a deployed
 * one is reached only under the names its platform routes to it. A request without `Origin` (a
 * non-browser client) passes.
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
