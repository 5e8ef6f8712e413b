import type { OAuthOptions } from './oauth-options.ts'

/** The root path of the app's routes, without its trailing slash (`''` at `/`). */
const rootOf = (basePath: string) => basePath.replace(/\/+$/, '')

/** The protected-resource metadata paths (RFC 9728), under `basePath`: the root's, and `/mcp`'s. */
export const metadataPath = '/.well-known/oauth-protected-resource'

/**
 * This resource as RFC 9728 and RFC 8707 name it, for a request to `url`: its identifier (the root's
 * or, for `/mcp`, the MCP endpoint's), where its metadata lives, and the audiences a token may carry.
 */
export function protectedResource(url: string, basePath: string, oauth: OAuthOptions) {
  const { origin, pathname } = new URL(url)
  const root = rootOf(basePath)
  const isMcp = pathname === `${root}/mcp` || pathname === `${root}${metadataPath}/mcp`
  const rootResource = `${origin}${root}`
  const resource = isMcp ? `${rootResource}/mcp` : rootResource || origin
  const scopes = [...new Set([...(oauth.scopes ?? []), ...Object.values(oauth.toolScopes ?? {}).flat()])]
  return {
    resource,
    metadataUrl: `${rootResource}${metadataPath}${isMcp ? '/mcp' : ''}`,
    // One server, one set of tools: a token for the root or for `/mcp` (either spelling of the root) is good on both.
    audiences: 'audience' in oauth && oauth.audience !== undefined ? [oauth.audience].flat() : [rootResource || origin, `${rootResource}/`, `${rootResource}/mcp`],
    scopes,
    metadata: {
      resource,
      // The built-in authorization server (`provider: 'builtin'`) is this Worker's origin (oauth/builtin-server.ts).
      authorization_servers: ['issuer' in oauth ? oauth.issuer : origin],
      scopes_supported: scopes,
      bearer_methods_supported: ['header'],
    },
  }
}
