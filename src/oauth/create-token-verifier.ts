import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose'
import type { OAuthOptions } from './oauth-options.ts'
import type { VerifiedToken } from '../caller/verified-token.ts'

/** An issuer's metadata documents, in the order RFC 8414 §3.1 and OpenID Discovery place them. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer)
  const path = url.pathname.replace(/\/+$/, '')
  return [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`]
}

/** The issuer's `jwks_uri`, from the first metadata document that names this issuer. */
async function jwksUriOf(issuer: string): Promise<URL> {
  for (const url of metadataUrls(issuer)) {
    const response = await fetch(url, { headers: { accept: 'application/json' } }).catch(() => undefined)
    if (!response?.ok) continue
    const metadata = (await response.json().catch(() => ({}))) as { issuer?: unknown; jwks_uri?: unknown }
    // RFC 8414 §3.3: a document for another issuer is not this one's.
    if (metadata.issuer === issuer && typeof metadata.jwks_uri === 'string') return new URL(metadata.jwks_uri)
  }
  throw new Error(`toolroute: no authorization server metadata with a jwks_uri found for issuer ${issuer}`)
}

/** The granted scopes: `scope` (RFC 9068, space-separated) or `scp` (a list, as Okta and Entra write it). */
function scopesOf(claims: JWTPayload): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter(Boolean)
  if (Array.isArray(claims.scp)) return claims.scp.filter((scope): scope is string => typeof scope === 'string')
  return typeof claims.scp === 'string' ? claims.scp.split(' ').filter(Boolean) : []
}

/** Why a token failed, in words that never quote it. */
export function tokenRefusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired'
  if (error instanceof errors.JWTClaimValidationFailed) return `The access token's ${error.claim} claim is not accepted here`
  if (error instanceof errors.JOSEError) return `The access token could not be verified (${error.code})`
  return 'The access token could not be verified'
}

/**
 * Verifies JWT access tokens of `oauth.issuer` with jose: signed by a key the issuer publishes
 * (found through its metadata, fetched once and kept by jose's JWKS cache), `iss`, `aud`, `exp`, `nbf`.
 */
export function createTokenVerifier(oauth: Extract<OAuthOptions, { issuer: string }>) {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined
  const keysOf = () => (keys ??= jwksUriOf(oauth.issuer).then((uri) => createRemoteJWKSet(uri), (error: unknown) => ((keys = undefined), Promise.reject(error))))
  const needed = (toolId: string) => [...(oauth.scopes ?? []), ...(oauth.toolScopes?.[toolId] ?? [])]
  return async (token: string, audiences: readonly string[]): Promise<VerifiedToken> => {
    const { payload } = await jwtVerify(token, await keysOf(), { issuer: oauth.issuer, audience: [...audiences], requiredClaims: ['exp', 'sub'] })
    const scopes = scopesOf(payload)
    const granted = new Set(scopes)
    return {
      issuer: oauth.issuer,
      subject: payload.sub!,
      claims: payload,
      scopes,
      missingScopes: (toolId) => needed(toolId).filter((scope) => !granted.has(scope)),
    }
  }
}
