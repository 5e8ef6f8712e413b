import type { Hono, MiddlewareHandler } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { PlaygroundPageLoader } from '../playground/load-playground-page.ts'
import type { ToolAppEnv } from './tool-app-options.ts'

/** Hosts a local development server answers on: where the playground is on unless configured. */
const localHosts = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Whether `GET /` serves the playground: the option, else a local host (SPEC §10; a default, not a guard). */
export function servesPlayground(option: boolean | undefined, url: string): boolean {
  return option ?? localHosts.has(new URL(url).hostname)
}

// The page talks only to the app, and cannot be framed (its Approve button must not be clickable elsewhere).
const headers = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
}

type PlaygroundMount = { playground: boolean | undefined; basePath: string; page: PlaygroundPageLoader | undefined; root: Hono<ToolAppEnv>; auth: boolean }

/** Where the page answers: `/`, and under a base path `/v1` and `/v1/` alike (the root app's route: the base app's `/` is `/v1`). `handler` gets the base. */
function onPage(app: Hono<ToolAppEnv>, options: PlaygroundMount, handler: (base: string) => MiddlewareHandler<ToolAppEnv>): void {
  const base = options.basePath.replace(/\/+$/, '')
  const answer = handler(base)
  app.get('/', answer)
  if (base) options.root.get(`${base}/`, answer)
}

/** `GET /`: the playground page, rendered on first request, behind the app's auth like its routes; when off or not built, answered as unknown. */
export function mountPlayground(app: Hono<ToolAppEnv>, options: PlaygroundMount): void {
  if (options.playground === false) return
  let page: Promise<string> | undefined
  onPage(app, options, (base) => async (c) => {
    if (!servesPlayground(options.playground, c.req.url)) return c.notFound()
    if (!options.page) throw new ToolrouteError('TOOL_NOT_FOUND', `No route for GET ${c.req.path}: ${notBuilt}`)
    page ??= Promise.resolve(options.page({ base, auth: options.auth }))
    return c.html(await page, 200, headers)
  })
}

/**
 * With `auth` or `oauth`, a browser opening the page cannot send a bearer token: the refusal it meets (still
 * the app's own 401, its `WWW-Authenticate` kept) is a form asking for one, which opens the page with it.
 * Mounted before auth, it changes only a 401 to a page request from a browser; JSON callers see the 401 as is.
 */
export function mountTokenPrompt(app: Hono<ToolAppEnv>, options: PlaygroundMount): void {
  if (options.playground === false || !options.page) return
  const page = options.page
  onPage(app, options, (base) => async (c, next) => {
    await next()
    if (c.res.status !== 401 || !c.req.header('accept')?.includes('text/html') || !servesPlayground(options.playground, c.req.url)) return
    // Hono keeps the refusal's headers (its challenge among them) on the answer that replaces it.
    c.res = new Response(await page({ base, tokenPrompt: true }), { status: 401, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' } })
  })
}

const notBuilt =
  'this build has no playground page (toolroute deploy leaves it out unless toolroute.config.ts sets playground: true; toolroute dev serves it)'
