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
