import type { Context, Hono, MiddlewareHandler } from 'hono'
import { errors } from 'jose'
import type { OAuthOptions } from './oauth-options.ts'
import type { ToolAppEnv } from '../http/tool-app-options.ts'
import { bearerChallenge } from './bearer-challenge.ts'
import { createTokenVerifier, tokenRefusal } from './create-token-verifier.ts'
import { filterListings } from './filter-listings.ts'
import { mcpScopeGuard } from './mcp-scope-guard.ts'
import { metadataPath, protectedResource } from './protected-resource.ts'

/**
 * The OAuth 2.1 resource server (SPEC §15), mounted by `createToolApp` before `auth` when the app
 * has `oauth`: RFC 9728 metadata (the root's and `/mcp`'s) answered without a token; every other
 * route refused `401` without a valid JWT access token of `oauth.issuer`; a tool call refused `403
 * INSUFFICIENT_SCOPE` (on `/mcp`, an `isError` result) without the scopes its tool needs; the listings
 * show only what the token may call. The
 * verified token (`verifiedToken` on the context) is the request's principal (`principalOf`).
 *
 * @example
 * createToolApp({ tools, oauth: { issuer: 'https://auth.example.com/' } }, { oauth: oauthGuard })
 */
export function oauthGuard(app: Hono<ToolAppEnv>, { oauth, basePath }: { oauth: OAuthOptions; basePath: string }): void {
  const verify = createTokenVerifier(oauth)
  const resourceOf = (c: Context) => protectedResource(c.req.url, basePath, oauth)
  const metadata = (c: Context) => c.json(resourceOf(c).metadata, 200, { 'cache-control': 'public, max-age=3600' })
  app.get(metadataPath, metadata)
  app.get(`${metadataPath}/mcp`, metadata)

  app.use('*', async (c, next) => {
    const resource = resourceOf(c)
    const challenge = { metadataUrl: resource.metadataUrl, scopes: resource.scopes }
    const [scheme, token, ...rest] = (c.req.header('authorization') ?? '').trim().split(/\s+/)
    if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length > 0) {
      return bearerChallenge(c, { ...challenge, message: 'This server needs an OAuth access token (Authorization: Bearer)' })
    }
    try {
      c.set('verifiedToken', await verify(token, resource.audiences))
    } catch (error) {
      // Only the token's own failures are the caller's: an unreachable issuer is the server's (500).
      if (!(error instanceof errors.JOSEError) || error instanceof errors.JWKSTimeout) throw error
      return bearerChallenge(c, { ...challenge, error: 'invalid_token', message: tokenRefusal(error) })
    }
    await next()
  })

  // `scope` names what to ask for next: what the token has and what it lacks (a step-up keeps the rest).
  const insufficient = (c: Context, missing: readonly string[]) =>
    bearerChallenge(c, {
      error: 'insufficient_scope',
      message: `This token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')}`,
      metadataUrl: resourceOf(c).metadataUrl,
      scopes: [...new Set([...(c.get('verifiedToken')?.scopes ?? []), ...missing])],
    })
  const toolScopes: MiddlewareHandler<ToolAppEnv> = async (c, next) => {
    const missing = c.req.method === 'POST' ? (c.get('verifiedToken')?.missingScopes(c.req.param('toolId') ?? '') ?? []) : []
    return missing.length > 0 ? insufficient(c, missing) : next()
  }
  app.use('/tools/:toolId', toolScopes)
  app.use('/api/tools/:toolId/execute', toolScopes)
  app.use('/tools', filterListings(basePath))
  app.use('/openapi.json', filterListings(basePath))
  app.use('/api/tools', filterListings(basePath))
  app.use('/mcp', mcpScopeGuard(Object.keys(oauth.toolScopes ?? {}), insufficient))
}
