import { jsonRpcError } from './json-rpc-error.ts'

const localHosts = new Set(['localhost', '127.0.0.1', '[::1]'])

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).hostname
  } catch {
    return undefined
  }
}

/**
 * The MCP transport's DNS-rebinding rule: a request with an `Origin` that is not allowed gets 403
 * before anything else runs. Allowed: `allowedOrigins` when given, else the app's own origin and,
 * for an app served on localhost, any localhost origin (a browser page on another port of the same
 * machine). A request without `Origin` (a non-browser client) passes.
 */
export function checkMcpOrigin(request: Request, allowedOrigins: readonly string[] | undefined): Response | undefined {
  const origin = request.headers.get('origin')
  if (origin === null) return undefined
  const own = new URL(request.url)
  if (allowedOrigins) {
    if (allowedOrigins.includes(origin)) return undefined
  } else {
    if (origin === own.origin) return undefined
    const host = hostOf(origin)
    if (host !== undefined && localHosts.has(own.hostname) && localHosts.has(host)) return undefined
  }
  return jsonRpcError(403, -32000, `Forbidden: Origin ${origin} is not allowed`)
}
