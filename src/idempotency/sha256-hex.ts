/** The SHA-256 of `data` (text as UTF-8) in hex: a principal's credential, a key's fingerprint, a call's key. */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', typeof data === 'string' ? new TextEncoder().encode(data) : data)
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
