import type { OAuthAuthorizationServer, OAuthHelpers } from '@cloudflare/workers-oauth-provider'
import { Hono, type Context } from 'hono'
import { checkHost } from '../http/middleware/check-host.ts'
import type { OAuthOptions } from './oauth-options.ts'
import { localSignIn } from './local-sign-in.ts'
import { metadataPath } from './protected-resource.ts'

/** The Worker's bindings the built-in authorization server reads: its grants, clients and tokens live in `OAUTH_KV`. */
export interface BuiltinOAuthEnv {
  OAUTH_KV: KVNamespace
}

/**
 * The app's sign-in (`oauth.signIn`'s default export): a Hono handler on `GET`/`POST /authorize` that signs the
 * user in its own way, then answers `c.env.OAUTH_PROVIDER.completeAuthorization({ request, userId, scope, props,
 * metadata })`'s `redirectTo` (docs/auth.md). `request` is `await c.env.OAUTH_PROVIDER.parseAuthRequest(c.req.raw)`.
 */
export type SignInHandler = (c: Context<{ Bindings: { OAUTH_PROVIDER: OAuthHelpers } & Record<string, unknown> }>) => Response | Promise<Response>

/** Where the built-in server's endpoints live, on the Worker's origin (its issuer). */
export const builtinPaths = { authorize: '/authorize', token: '/token', register: '/register', metadata: '/.well-known/oauth-authorization-server' }

/** The root path of the app's routes, without its trailing slash. */
const rootOf = (basePath = '') => basePath.replace(/\/+$/, '')

const servers = new Map<string, OAuthAuthorizationServer<BuiltinOAuthEnv>>()

/**
 * The authorization server of `origin` (its issuer; one per origin the Worker is reached at, made once per
 * isolate): RFC 8414 metadata, dynamic registration, PKCE S256, grants and tokens in KV, all from
 * `@cloudflare/workers-oauth-provider`. It issues tokens for the app's root and its `/mcp` (RFC 8707).
 */
export async function builtinServerOf(origin: string, basePath: string | undefined, oauth: OAuthOptions): Promise<OAuthAuthorizationServer<BuiltinOAuthEnv>> {
  let server = servers.get(origin)
  if (!server) {
    // Imported on first use: the library warns about CIMD when loaded, which every test of an app without
    // OAuth printed (vitest loads all of toolroute/workers; a Worker's bundle leaves this module out).
    const { OAuthAuthorizationServer } = await import('@cloudflare/workers-oauth-provider')
    const root = `${origin}${rootOf(basePath)}`
    const scopes = [...new Set([...(oauth.scopes ?? []), ...Object.values(oauth.toolScopes ?? {}).flat()])]
    // (another request may have made it meanwhile)
    server = servers.get(origin) ?? new OAuthAuthorizationServer<BuiltinOAuthEnv>({
      issuer: origin,
      resources: [root, `${root}/mcp`],
      defaultResource: `${root}/mcp`,
      authorizeEndpoint: builtinPaths.authorize,
      tokenEndpoint: builtinPaths.token,
      clientRegistrationEndpoint: builtinPaths.register,
      ...(scopes.length > 0 ? { scopesSupported: scopes } : {}),
    })
    servers.set(origin, server)
  }
  return server
}

/** What the generated entry passes (`toolroute build` writes it for `oauth: { provider: 'builtin' }`). */
export interface BuiltinOAuthOptions {
  config: { basePath?: string; oauth?: OAuthOptions }
  /** The app's sign-in (the `oauth.signIn` module's default export). */
  signIn?: SignInHandler
  /** Served locally (`toolroute dev`): `/authorize` is the local sign-in form, which needs no network, instead. */
  servedLocally?: boolean
}

type Fetcher = { fetch(request: Request, env: any, ctx: ExecutionContext): Response | Promise<Response> }

/**
 * The generated Worker with toolroute as its own authorization server (SPEC §15): `/authorize` is the app's
 * sign-in (or, served locally, the local one), the library serves metadata, `/token` and `/register`, and
 * every other request reaches the Worker, whose resource server (`builtinOAuthGuard`) checks the tokens.
 */
export function withBuiltinOAuth<W extends Fetcher>(worker: W, { config, signIn, servedLocally }: BuiltinOAuthOptions): W {
  const oauth = config.oauth ?? { provider: 'builtin' }
  const authorize = servedLocally ? localSignIn : signIn
  type Env = BuiltinOAuthEnv & { OAUTH_PROVIDER: OAuthHelpers; OAUTH_SERVER: OAuthAuthorizationServer<BuiltinOAuthEnv> }
  const app = new Hono<{ Bindings: Env }>()
  // Served locally, the sign-in (which takes any name) and the rest answer only loopback Hosts, as the Worker does (SPEC §5):
  // a page whose DNS name is rebound to this machine signs no one in.
  if (servedLocally) app.use('*', checkHost())
  app.use('*', async (c, next) => {
    if (!c.env.OAUTH_KV) return c.text('toolroute: the built-in authorization server needs a KV namespace bound as OAUTH_KV (docs/auth.md)', 500)
    c.env.OAUTH_SERVER = await builtinServerOf(new URL(c.req.url).origin, config.basePath, oauth)
    c.env.OAUTH_PROVIDER = c.env.OAUTH_SERVER.getOAuthApi(c.env)
    await next()
  })
  app.all(builtinPaths.authorize, (c) => {
    if (!authorize) return c.text("toolroute: oauth: { provider: 'builtin' } has no signIn module (docs/auth.md)", 501)
    return authorize(c as never)
  })
  app.all('*', (c) => c.env.OAUTH_SERVER.fetch(c.req.raw, c.env, c.executionCtx as never))
  // Its issuer is the origin, whatever the app's basePath: its RFC 8414 metadata is the root's.
  const served = new Set(Object.values(builtinPaths))
  // Under a basePath, RFC 9728 puts the metadata of `<origin>/v1` (and `/v1/mcp`) at `/.well-known/oauth-protected-resource/v1`
  // (and `…/v1/mcp`), outside the app's routes: they answer what the app serves under basePath (SPEC §15).
  const root = rootOf(config.basePath)
  const moved = new Map<string, string>(root ? [[`${metadataPath}${root}`, `${root}${metadataPath}`], [`${metadataPath}${root}/mcp`, `${root}${metadataPath}/mcp`]] : [])
  return {
    ...worker,
    fetch(request: Request, env: BuiltinOAuthEnv, ctx: ExecutionContext) {
      const url = new URL(request.url)
      const metadata = moved.get(url.pathname)
      if (metadata) return worker.fetch(new Request(new URL(metadata, url), request), env, ctx)
      if (!served.has(url.pathname)) return worker.fetch(request, env, ctx)
      return app.fetch(request, { ...env }, ctx)
    },
  }
}
