import type { MiddlewareHandler } from 'hono'
import { isLoopbackHost } from '../../caller/is-loopback-host.ts'
import { ToolrouteError } from '../../errors/toolroute-error.ts'
import { errorResponse } from '../error-response.ts'

/** A `Host` value: a name or IPv4 address, or an IPv6 address in brackets, then an optional port. */
const hostPattern = /^(\[[0-9a-f:.]+\]|[^:[\]/@\s]+)(?::\d{1,5})?$/i

/** Whether `allowedHosts` names `hostname`: the name itself, or a parent given with a leading dot (`.example.test`). */
function listed(hostname: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((allowed) => {
    const name = allowed.toLowerCase()
    return name.startsWith('.') ? hostname === name.slice(1) || hostname.endsWith(name) : hostname === name
  })
}

/**
 * The DNS-rebinding rule of a locally served app (SPEC §5): a rebound page is same-origin but cannot
 * fake its `Host`, so one neither loopback nor in `allowedHosts` gets `403 FORBIDDEN` before anything runs.
 */
export function checkHost(allowedHosts: readonly string[] = []): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host') ?? new URL(c.req.url).host
    // Compared as sent, lower-cased: a name spelled otherwise (`0x7f.1`, `localhost.`) is refused.
    const hostname = hostPattern.exec(host)?.[1]?.toLowerCase()
    if (hostname !== undefined && (isLoopbackHost(hostname) || listed(hostname, allowedHosts))) return next()
    const message = `Host ${JSON.stringify(host.slice(0, 256))} is not allowed: this app is built to be served locally, where it answers only localhost, 127.0.0.1 and [::1] (list other names in allowedHosts; a Worker to deploy is built by toolroute deploy)`
    return errorResponse(c, new ToolrouteError('FORBIDDEN', message))
  }
}
