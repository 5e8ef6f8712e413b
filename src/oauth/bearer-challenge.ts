import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { errorResponse } from '../http/error-response.ts'

/** A quoted `auth-param` value (RFC 9110): a quote or backslash escaped. */
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`

/**
 * The refusal a client signs in by (SPEC §15, RFC 6750 §3): `401 UNAUTHORIZED` with `resource_metadata`
 * (and `error="invalid_token"` for a bad token), or `403 INSUFFICIENT_SCOPE` naming the scopes needed.
 */
export function bearerChallenge(
  c: Context,
  refusal: { error?: 'invalid_token' | 'insufficient_scope'; message: string; metadataUrl: string; scopes: readonly string[] },
): Response {
  const code = refusal.error === 'insufficient_scope' ? 'INSUFFICIENT_SCOPE' : 'UNAUTHORIZED'
  const response = errorResponse(c, new ToolrouteError(code, refusal.message))
  const params = [
    ...(refusal.error ? [`error=${quoted(refusal.error)}`] : []),
    ...(refusal.error === 'invalid_token' ? [`error_description=${quoted(refusal.message)}`] : []),
    ...(refusal.scopes.length > 0 ? [`scope=${quoted(refusal.scopes.join(' '))}`] : []),
    `resource_metadata=${quoted(refusal.metadataUrl)}`,
  ]
  response.headers.set('www-authenticate', `Bearer ${params.join(', ')}`)
  return response
}
