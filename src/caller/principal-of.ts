import type { Context } from 'hono'
import type { CallerOptions } from './caller-options.ts'
import type { RequestCaller } from './resolve-request-context.ts'
import type { VerifiedToken } from './verified-token.ts'
import { sha256Hex } from '../idempotency/sha256-hex.ts'

/** Session ids are UUIDs the MCP handler made; anything else names no session and reaches no object. */
export const sessionIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The principal of an MCP 2025 session that no other source names: `mcp-session:<session id>`. */
export const sessionPrincipalPrefix = 'mcp-session:'

/**
 * The principal a request acts for (SPEC §12), for every surface, in order: the app's `principal`
 * rule; the resolver's (`caller`); the OAuth-verified token's issuer and subject; a hash of `authorization`; the MCP 2025 session (a server-made
 * UUID, as unguessable as a run id); else `null`: nobody, its runs reachable by their id alone.
 */
export async function principalOf(
  c: Context,
  options: CallerOptions,
  requestContext: Record<string, unknown>,
  caller: Omit<RequestCaller, 'requestContext'> = {},
  sessionId: string | undefined = c.req.header('mcp-session-id'),
): Promise<string | null> {
  if (options.principal) return options.principal(c, requestContext)
  if (typeof caller.principal === 'string') return caller.principal
  const token = c.get('verifiedToken') as VerifiedToken | undefined
  // An issuer identifier has no fragment (RFC 8414): `#` parts it from the subject unambiguously.
  if (token) return `oauth:${token.issuer}#${token.subject}`
  const authorization = c.req.header('authorization')
  if (authorization) return `auth:${await sha256Hex(authorization)}`
  if (sessionId !== undefined && sessionIdPattern.test(sessionId)) return `${sessionPrincipalPrefix}${sessionId.toLowerCase()}`
  if (caller.resolved && caller.principal === undefined) warnOfUnownedCredentials(c, options)
  return null
}

/** `principalOf`, its credential hash put off until a run is stored: a call that stores none computes no SHA-256. */
export async function deferredPrincipalOf(
  c: Context,
  options: CallerOptions,
  requestContext: Record<string, unknown>,
  caller: Omit<RequestCaller, 'requestContext'> = {},
): Promise<string | null | (() => Promise<string | null>)> {
  if (options.principal || typeof caller.principal === 'string' || c.get('verifiedToken')) return principalOf(c, options, requestContext, caller)
  let principal: Promise<string | null> | undefined
  return () => (principal ??= principalOf(c, options, requestContext, caller))
}

const warned = new WeakSet<CallerOptions>()

/** Said once per app: its resolver named no principal for a request with a cookie, so its runs belong to nobody. */
function warnOfUnownedCredentials(c: Context, options: CallerOptions): void {
  if (warned.has(options) || !c.req.header('cookie')) return
  warned.add(options)
  console.warn(
    'toolroute: resolveRequestContext answered a request that carries a Cookie but returned no principal, so its runs and Idempotency-Keys ' +
      'belong to nobody (anyone holding a run id reads and approves it). Return { requestContext, principal } from resolveRequestContext, ' +
      'or set `principal` in the config (SPEC §12).',
  )
}
