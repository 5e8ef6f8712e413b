import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { signInWalk } from './sign-in-walk.ts'

/**
 * The MCP SDK's `OAuthClientProvider` kept in memory, whose "browser" is `signInWalk`: it registers
 * itself (dynamic registration), sends the user to sign in with PKCE, and keeps the code for `finishAuth`.
 */
export class WalkingOAuthClient implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:1/callback'
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'toolroute test client',
    redirect_uris: [this.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
  code: string | undefined
  private client: OAuthClientInformationMixed | undefined
  private saved: OAuthTokens | undefined
  private verifier = ''
  /** `walk` is the browser: `signInWalk` follows redirects; another may fill in a sign-in form. */
  constructor(private readonly walk: (url: URL, redirectUrl: string) => Promise<string> = signInWalk) {}
  clientInformation() {
    return this.client
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  async redirectToAuthorization(url: URL) {
    this.code = await this.walk(url, this.redirectUrl)
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}
