/**
 * The fingerprint of a keyed request: SHA-256 over the tool id and the raw body bytes, so the
 * same key sent to another tool, or with another body, is a different request (422). Bytes, not
 * parsed JSON: `{"a":1}` and `{ "a": 1 }` are different requests, as Stripe and the IETF draft
 * compare them.
 */
export async function fingerprintOf(toolId: string, body: Uint8Array): Promise<string> {
  const id = new TextEncoder().encode(`${toolId}\n`)
  const bytes = new Uint8Array(id.byteLength + body.byteLength)
  bytes.set(id)
  bytes.set(body, id.byteLength)
  const digest = await crypto.subtle.digest('SHA-256', bytes)
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
