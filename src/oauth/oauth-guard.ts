import { errors } from 'jose'
import { createTokenVerifier, tokenRefusal } from './create-token-verifier.ts'
import { resourceServer } from './mount-resource-server.ts'

/**
 * The OAuth 2.1 resource server (SPEC §15) of an external issuer, mounted by `createToolApp` before
 * `auth` when the app has `oauth: { issuer }`: JWT access tokens of `oauth.issuer`, verified with jose
 * (`resourceServer` does the rest: metadata, challenges, scopes, listings).
 *
 * @example
 * createToolApp({ tools, oauth: { issuer: 'https://auth.example.com/' } }, { oauth: oauthGuard })
 */
export const oauthGuard = resourceServer((oauth) => {
  if (!('issuer' in oauth)) throw new Error("toolroute: oauth: { provider: 'builtin' } is served by toolroute build's Worker entry (docs/auth.md), not by this guard")
  const verify = createTokenVerifier(oauth)
  return (token, audiences) =>
    verify(token, audiences).catch((error: unknown) => {
      // Only the token's own failures are the caller's: an unreachable issuer is the server's (500).
      if (!(error instanceof errors.JOSEError) || error instanceof errors.JWKSTimeout) throw error
      return tokenRefusal(error)
    })
})
