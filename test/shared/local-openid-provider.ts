import { createServer } from 'node:http'
import { exportJWK, generateKeyPair, type CryptoKey } from 'jose'
import Provider from 'oidc-provider'

/**
 * A real OpenID provider (`oidc-provider`, certified) on a free loopback port, issuing JWT access
 * tokens for resource indicators (RFC 8707) with dynamic client registration and PKCE. Its sign-in
 * and consent pages are replaced by `signInAs` and `consentTo`: whoever walks to an interaction is
 * signed in as that user, granted the scopes asked for that are in `consentTo`.
 */
export async function startOpenIdProvider(scopes: readonly string[]) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }
  const user = { signInAs: 'alice', consentTo: [...scopes] }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let provider!: any
  const server = createServer(async (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return provider.callback()(req, res)
    const details: { prompt: { name: string; details: unknown }; session?: { accountId: string }; params: Record<string, unknown> } = await provider.interactionDetails(req, res)
    if (details.prompt.name === 'login') {
      return provider.interactionFinished(req, res, { login: { accountId: user.signInAs } }, { mergeWithLastSubmission: false })
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string })
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> }
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
    for (const [indicator, asked] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, asked.join(' '))
    }
    return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    scopes: ['openid', 'offline_access', ...scopes],
    cookies: { keys: ['a cookie key for the test only'] },
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => ({
          // What the user consents to is all the resource may get: a scope asked beyond it is left out of the token.
          scope: user.consentTo.join(' '),
          audience: indicator,
          accessTokenTTL: 600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  })
  return {
    issuer,
    user,
    /** The key the provider signs with, to forge tokens it could have issued (expired, for another audience). */
    privateKey: privateKey as CryptoKey,
    publicKey,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}
