import type { Context, Hono } from 'hono'
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

/**
 * `GET /`: the playground page, rendered on first request; when off or not built, answered as unknown. Mounted
 * before `auth` (a browser opens a page without a bearer token): it holds no data, its routes stay behind `auth`.
 */
export function mountPlayground(app: Hono<ToolAppEnv>, options: { playground: boolean | undefined; basePath: string; page: PlaygroundPageLoader | undefined; root: Hono<ToolAppEnv>; auth: boolean }): void {
  if (options.playground === false) return
  const base = options.basePath.replace(/\/+$/, '')
  let page: Promise<string> | undefined
  const serve = async (c: Context<ToolAppEnv>) => {
    if (!servesPlayground(options.playground, c.req.url)) return c.notFound()
    if (!options.page) throw new ToolrouteError('TOOL_NOT_FOUND', `No route for GET ${c.req.path}: ${notBuilt}`)
    page ??= Promise.resolve(options.page({ base, auth: options.auth }))
    return c.html(await page, 200, headers)
  }
  app.get('/', serve)
  // Under a base path the page answers at `/v1` and `/v1/` alike (the root app's route: the base app's `/` is `/v1`).
  if (base) options.root.get(`${base}/`, serve)
}

const notBuilt =
  'this build has no playground page (toolroute deploy leaves it out unless toolroute.config.ts sets playground: true; toolroute dev serves it)'
