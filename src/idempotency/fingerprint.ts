import { sha256Hex } from './sha256-hex.ts'

/**
 * The fingerprint of a keyed request: SHA-256 over the tool id, the principal (so a record never
 * answers someone else's request, whatever a store's layout), the validated request context and
 * the raw body bytes (`{"a":1}` and `{ "a": 1 }` differ, as Stripe and the IETF draft compare them).
 */
export async function fingerprintOf(
  scope: { toolId: string; principal: string | null; requestContext: Record<string, unknown> },
  body: Uint8Array,
): Promise<string> {
  // A resolver's context may hold what JSON cannot (a bigint): such a value counts as its text.
  const context = JSON.stringify(scope.requestContext, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)) ?? ''
  const head = new TextEncoder().encode(`${JSON.stringify([scope.toolId, scope.principal, context])}\n`)
  const bytes = new Uint8Array(head.byteLength + body.byteLength)
  bytes.set(head)
  bytes.set(body, head.byteLength)
  return sha256Hex(bytes)
}
