import type { OAuthOptions } from './oauth-options.ts'
import { builtinServerOf, type BuiltinOAuthEnv } from './builtin-server.ts'
import { missingScopesOf, resourceServer } from './mount-resource-server.ts'

/**
 * The resource server of `oauth: { provider: 'builtin' }` (SPEC §15): the tokens of this Worker's own
 * authorization server (`withBuiltinOAuth`), looked up in `OAUTH_KV` by the library, for this resource
 * (root or `/mcp`). The principal is `oauth:<origin>#<userId>`, as for any issuer.
 */
export const builtinOAuthGuard = resourceServer((oauth: OAuthOptions) => async (token, audiences, c) => {
  const env = c.env as BuiltinOAuthEnv | undefined
  if (!env?.OAUTH_KV) throw new Error('toolroute: the built-in authorization server needs a KV namespace bound as OAUTH_KV (docs/auth.md)')
  const origin = new URL(c.req.url).origin
  const server = await builtinServerOf(origin, basePathOf(audiences, origin), oauth)
  // A token for the root or for `/mcp` is good on both (one server, one set of tools), as with an issuer's JWTs.
  for (const audience of new Set(audiences.map((resource) => resource.replace(/\/$/, '')))) {
    const valid = await server.validateToken(audience, token, env)
    if (!valid) continue
    return {
      issuer: origin,
      subject: valid.userId,
      claims: { iss: origin, sub: valid.userId, aud: valid.audience, exp: valid.expiresAt, client_id: valid.clientId, scope: valid.scope.join(' '), props: valid.props },
      scopes: valid.scope,
      missingScopes: missingScopesOf(oauth, valid.scope),
    }
  }
  return 'The access token is not valid here (unknown, expired, revoked or for another resource)'
})

/** The app's `basePath`, from the audiences `protectedResource` names (`<origin><root>`, first). */
const basePathOf = (audiences: readonly string[], origin: string) => (audiences[0] ?? origin).slice(origin.length)
