/** What a keyed request is besides its body: the tool, who sent it, and in which request context. */
export interface FingerprintScope {
  toolId: string
  principal: string | null
  /** The request context the tool would see (validated): the same call in another context is another call. */
  requestContext: Record<string, unknown>
}

/**
 * The fingerprint of a keyed request: SHA-256 over the tool id, the principal, the request
 * context and the raw body bytes, so the same key sent to another tool, with another body or in
 * another context, is a different request (422). The principal already scopes the key in every
 * store; it is in the fingerprint too, so a record never answers a request of someone else's even
 * where a store's layout would let two principals meet. Body bytes, not parsed JSON: `{"a":1}`
 * and `{ "a": 1 }` are different requests, as Stripe and the IETF draft compare them.
 */
export async function fingerprintOf(scope: FingerprintScope, body: Uint8Array): Promise<string> {
  const head = new TextEncoder().encode(`${JSON.stringify([scope.toolId, scope.principal, contextText(scope.requestContext)])}\n`)
  const bytes = new Uint8Array(head.byteLength + body.byteLength)
  bytes.set(head)
  bytes.set(body, head.byteLength)
  const digest = await crypto.subtle.digest('SHA-256', bytes)
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** A resolver's context may hold what JSON cannot (a bigint): such a value counts as its text. */
function contextText(requestContext: Record<string, unknown>): string {
  return JSON.stringify(requestContext, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)) ?? ''
}
