const encoder = new TextEncoder()
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

/**
 * The `webhook-signature` of a message per the Standard Webhooks specification: `v1,` and the base64
 * HMAC-SHA256, keyed by the secret's bytes (`whsec_` then base64), of `<id>.<timestamp>.<body>`.
 * Web Crypto only, so a Worker bundles no hashing library; the tests verify it with `standardwebhooks`.
 */
export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const raw = Uint8Array.from(atob(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret), (char) => char.charCodeAt(0))
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return `v1,${base64(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`))))}`
}
