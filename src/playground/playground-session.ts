/**
 * What the playground keeps for its tab (sessionStorage: this tab only, gone when it closes), and the
 * token it sends. When the app has `auth` or `oauth` (the page's `data-auth`), a **Token** field sits in
 * the header; every request the page makes (`GET /tools`, its calls, `GET /runs`, approve, decline,
 * resume, the events it replays) carries `headers()`, `Authorization: Bearer <token>`: the one place
 * that decides them. The token is kept like the runs, never put in the URL, never logged. Like
 * `playgroundScript`, it ships as the text of this function, so it is self-contained.
 */
export function playgroundSession(h: (tag: string, props?: Record<string, any>, ...children: unknown[]) => any, changed: () => void) {
  const doc: any = (globalThis as any).document
  const storage: any = (globalThis as any).sessionStorage
  /** The value kept under `key`, or `fallback`; a disabled storage keeps nothing. */
  const kept = <T>(key: string, fallback: T): T => {
    try {
      return JSON.parse(storage.getItem(key) ?? 'null') ?? fallback
    } catch {
      return fallback
    }
  }
  /** Keeps a value for the tab; a full or disabled storage only loses it across reloads. */
  const keep = (key: string, value: unknown) => {
    try {
      storage.setItem(key, JSON.stringify(value))
    } catch {
      // Nothing to do: the page goes on with what it holds.
    }
  }
  let token = kept('toolroute.playground.token', '')
  const headers = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {})
  if (doc.body.dataset.auth !== undefined) {
    const field = h('input', { id: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false', value: token })
    field.addEventListener('change', () => {
      token = field.value.trim()
      keep('toolroute.playground.token', token)
      changed()
    })
    doc.getElementById('token-panel').replaceChildren(h('label', { for: 'token' }, 'Token'), field, h('small', {}, 'sent as Authorization: Bearer, kept in this tab only'))
  }
  return { kept, keep, headers }
}
