import type { Context, Hono, MiddlewareHandler } from 'hono'
import type { OAuthOptions } from './oauth-options.ts'
import type { ToolAppEnv } from '../http/tool-app-options.ts'
import type { VerifiedToken } from '../caller/verified-token.ts'
import { bearerChallenge } from './bearer-challenge.ts'
import { filterListings } from './filter-listings.ts'
import { mcpScopeGuard } from './mcp-scope-guard.ts'
import { metadataPath, protectedResource } from './protected-resource.ts'

/** Checks a bearer token for one of `audiences`: what it says, or why it is refused (a string, never quoting it). */
export type TokenCheck = (token: string, audiences: readonly string[], c: Context) => Promise<VerifiedToken | string>

/** The scopes `oauth` asks of tool `toolId`, and those of them `granted` lacks. */
export const missingScopesOf = (oauth: OAuthOptions, granted: readonly string[]) => (toolId: string) =>
  [...(oauth.scopes ?? []), ...(oauth.toolScopes?.[toolId] ?? [])].filter((scope) => !granted.includes(scope))

/**
 * The OAuth 2.1 resource server (SPEC §15) around a token check (`oauthGuard`'s JWTs of an issuer, or
 * `builtinOAuthGuard`'s tokens of this Worker's own authorization server): RFC 9728 metadata (the
 * root's and `/mcp`'s) answered without a token; every other route refused `401` without a valid
 * access token; a tool call refused `403 INSUFFICIENT_SCOPE` (on `/mcp`, an `isError` result) without
 * the scopes its tool needs; the listings show only what the token may call. The verified token
 * (`verifiedToken` on the context) is the request's principal (`principalOf`).
 */
export const resourceServer =
  (checkOf: (oauth: OAuthOptions) => TokenCheck) =>
  (app: Hono<ToolAppEnv>, { oauth, basePath }: { oauth: OAuthOptions; basePath: string }): void => {
    const check = checkOf(oauth)
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
      const verified = await check(token, resource.audiences, c)
      if (typeof verified === 'string') return bearerChallenge(c, { ...challenge, error: 'invalid_token', message: verified })
      c.set('verifiedToken', verified)
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
