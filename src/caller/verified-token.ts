/** The access token `oauth` verified (SPEC §15), on the context as `verifiedToken`: no token text, only what it says. */
export interface VerifiedToken {
  issuer: string
  subject: string
  /** Every claim, verified: what `resolveRequestContext` and `principal` may read. */
  claims: Readonly<Record<string, unknown>>
  scopes: readonly string[]
  /** The scopes tool `toolId` needs that the token lacks: none, and it may call it. */
  missingScopes(toolId: string): readonly string[]
}
