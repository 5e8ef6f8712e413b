import type { OAuthHelpers } from '@cloudflare/workers-oauth-provider'
import type { Context } from 'hono'

/** Text for HTML: `&`, `<`, `>` and quotes escaped. */
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/** A user name the local sign-in takes: letters, digits, `.`, `_`, `@`, `-` (the library refuses `:` in a user id). */
const userName = /^[\w.@-]{1,64}$/

const page = (body: string, status = 200) =>
  new Response(`<!doctype html><meta charset="utf-8"><title>Sign in (local)</title><body style="font:16px system-ui;max-width:28rem;margin:4rem auto">${body}</body>`, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'DENY', 'cache-control': 'no-store' },
  })

/**
 * The local sign-in of `toolroute dev` (SPEC §15), which needs no network: a form that takes a user name and
 * grants the client the scopes it asked for, as that user. Served only where the Worker is served locally
 * (`withBuiltinOAuth`'s `servedLocally`); a deployed Worker uses the app's own `signIn`.
 */
export async function localSignIn(c: Context<{ Bindings: { OAUTH_PROVIDER: OAuthHelpers } }>): Promise<Response> {
  const provider = c.env.OAUTH_PROVIDER
  let request: Awaited<ReturnType<OAuthHelpers['parseAuthRequest']>>
  try {
    request = await provider.parseAuthRequest(c.req.raw)
  } catch (error) {
    return page(`<h1>Not a valid sign-in request</h1><p>${escape(error instanceof Error ? error.message : String(error))}</p>`, 400)
  }
  const client = await provider.lookupClient(request.clientId)
  const clientName = escape(client?.clientName ?? request.clientId)
  const scopes = request.scope.length > 0 ? ` with the scopes <code>${escape(request.scope.join(' '))}</code>` : ''
  const user = c.req.method === 'POST' ? String((await c.req.parseBody()).user ?? '').trim() : ''
  if (c.req.method !== 'POST' || !userName.test(user)) {
    const warning = c.req.method === 'POST' ? '<p style="color:#b00">A user name is letters, digits, <code>.</code>, <code>_</code>, <code>@</code> or <code>-</code>.</p>' : ''
    return page(
      `<h1>Sign in (local)</h1><p><b>${clientName}</b> asks to call this server's tools${scopes}.</p>${warning}` +
        '<p>This local sign-in is served by <code>toolroute dev</code> only: any name signs in as that user.</p>' +
        '<form method="post"><label>User name <input name="user" autofocus required pattern="[A-Za-z0-9._@\\-]{1,64}"></label> <button>Sign in</button></form>',
      c.req.method === 'POST' ? 400 : 200,
    )
  }
  const { redirectTo } = await provider.completeAuthorization({ request, userId: user, scope: request.scope, props: { userId: user }, metadata: { signIn: 'local' } })
  return c.redirect(redirectTo, 302)
}
