import type { Context } from 'hono'
import type { CallerOptions } from './caller-options.ts'

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** The principal a request acts for: the app's own rule, else a hash of its credential. */
export function principalOf(c: Context, options: CallerOptions, requestContext: Record<string, unknown>): string | null | Promise<string | null> {
  if (options.principal) return options.principal(c, requestContext)
  const authorization = c.req.header('authorization')
  return authorization ? sha256(authorization).then((hash) => `auth:${hash}`) : null
}

/**
 * `principalOf`, put off where it can be: an app's own rule runs at once, as before (it may
 * refuse the call by throwing); the default rule, the hash of the credential, runs when first
 * asked for, which is when a run is stored. A call that stores nothing (most JSON calls) then
 * reads no `authorization` header and computes no SHA-256.
 */
export function deferredPrincipalOf(
  c: Context,
  options: CallerOptions,
  requestContext: Record<string, unknown>,
): string | null | Promise<string | null> | (() => Promise<string | null>) {
  if (options.principal) return options.principal(c, requestContext)
  let principal: Promise<string | null> | undefined
  return () => (principal ??= Promise.resolve(principalOf(c, options, requestContext)))
}
