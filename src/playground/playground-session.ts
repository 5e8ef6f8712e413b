/**
 * What the playground keeps for its tab (sessionStorage: this tab only), and the token it sends. When the
 * app has `auth` or `oauth` (the page's `data-auth`), a **Token** field sits in the header, and `headers()`
 * (`Authorization: Bearer <token>`) is what every request of the page carries: the one place that decides
 * them. The token is kept like the runs, never put in a URL, never logged. Like `playgroundScript`, it
 * ships as the text of this function, so it is self-contained.
 */
export function playgroundSession(h: (tag: string, props?: Record<string, any>, ...children: unknown[]) => any, changed: () => void) {
  const doc: any = (globalThis as any).document
  const storage: any = (globalThis as any).sessionStorage
  /** The value kept under `key`, or `fallback`; a full or disabled storage keeps nothing, and the page goes on. */
  const kept = <T>(key: string, fallback: T): T => {
    try {
      return JSON.parse(storage.getItem(key) ?? 'null') ?? fallback
    } catch {
      return fallback
    }
  }
  const keep = (key: string, value: unknown) => {
    try {
      storage.setItem(key, JSON.stringify(value))
    } catch {}
  }
  let token = kept('toolroute.playground.token', '')
  const headers = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {})
  if (doc.body.dataset.auth !== undefined) {
    const field = h('input', { id: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false', value: token, onchange: () => (keep('toolroute.playground.token', (token = field.value.trim())), changed()) })
    doc.getElementById('token-panel').replaceChildren(h('label', { for: 'token' }, 'Token'), field, h('small', {}, 'sent as Authorization: Bearer, kept in this tab only'))
  }
  return { kept, keep, headers }
}
