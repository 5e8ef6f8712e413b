import { isLoopbackHost } from '../caller/is-loopback-host.ts'
import { jsonRpcError } from './json-rpc-error.ts'

/**
 * The DNS-rebinding rule: an `Origin` not in `allowedOrigins` (default: the app's own, and loopback when
 * `servedLocally`) gets 403. The own origin is read from the request: a local app refuses every foreign
 * `Host` first (check-host.ts), and a deployed one is reached only under its routed names.
 */
export function checkMcpOrigin(request: Request, allowedOrigins: readonly string[] | undefined, servedLocally = false): Response | undefined {
  const origin = request.headers.get('origin')
  if (origin === null) return undefined
  const allowed = allowedOrigins
    ? allowedOrigins.includes(origin)
    : origin === new URL(request.url).origin || (servedLocally && URL.canParse(origin) && isLoopbackHost(new URL(origin).hostname))
  return allowed ? undefined : jsonRpcError(403, -32000, `Forbidden: Origin ${origin} is not allowed`)
}
