import type { Context, Env, MiddlewareHandler } from 'hono'
import type { cors } from 'hono/cors'
import type { CallerOptions, EnvContext } from '../caller/caller-options.ts'
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunLimits } from '../runs/run-limits.ts'
import type { LazyTools } from '../manifest/lazy-tools.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/**
 * Options of `createToolApp`: what a real deployment sets, in one config file of its own. `Mcp`
 * is what the `mcp` option may hold: the composers that pass the MCP feature name its options
 * (`toolroute/server`'s `ToolAppOptions` is this with `ToolAppMcpOptions`). Whether a feature
 * exists at all is its composer's to say (`ToolAppFeatures`).
 */
export interface ToolAppOptions<E extends Env = any, Mcp extends object = object> extends CallerOptions<E> {
  /**
   * The tools to serve: an array, or an object of them (a module's exports), or the lazy tools of
   * a build's manifest (what `toolroute build` generates in `.toolroute/manifest.ts`).
   */
  tools: readonly AnyTool[] | Readonly<Record<string, AnyTool>> | LazyTools
  /** Where the routes are mounted (default `/`). */
  basePath?: string
  /** Any Hono middleware run before every route, e.g. `bearerAuth({ token })` from `hono/bearer-auth`. */
  auth?: MiddlewareHandler<E> | readonly MiddlewareHandler<E>[]
  /**
   * How long an event stream may stay silent before a `: keep-alive` comment goes out (default
   * 15 000 ms, SPEC §3), so proxies do not close an idle follower.
   */
  keepAliveMs?: number
  /** Largest accepted request body in bytes (default 1 MiB). */
  maxInputBytes?: number
  /**
   * CORS for browsers: `true` for `hono/cors` defaults, or its options. Off by default. The
   * origins it names may also act on runs from a page (SPEC §12); `*` only with a JSON body.
   */
  cors?: boolean | Parameters<typeof cors>[0]
  /**
   * Where durable runs live: a `RunHost`, or one per request (Durable Objects need `env`). A function
   * gets the request's `Context`, or `{ env }` alone inside an MCP session object. Default: in memory
   * (`toolroute/server`'s `createToolApp`), the `TOOLROUTE_RUNS` Durable Objects (`createWorker`);
   * without a run store given by the composer (`ToolAppFeatures.runs`), none.
   */
  runs?: RunHost | ((c: EnvContext<E>) => RunHost)
  /**
   * How far a run's event log may grow: `{ maxEvents, maxEventBytes }`, default 10,000 events and
   * 8 MiB of event data (SPEC §12). Past either the run fails with a `tool-output-error` naming the
   * limit, and what it stored stays readable. Read by the run engines the app's composer makes
   * (in memory, Durable Objects, Deno KV); a `runs` of your own takes its own.
   */
  runLimits?: RunLimits
  /**
   * Idempotent calls (SPEC §9): where `Idempotency-Key`s live, one store or one per request
   * (`createWorker` uses the `TOOLROUTE_IDEMPOTENCY` Durable Objects). Default: in memory, this
   * process (`toolroute/server`'s `createToolApp`). `false` ignores the header.
   */
  idempotency?: boolean | IdempotencyStore | ((c: Context<E>) => IdempotencyStore)
  /** `'stateful'` (default) stores only runs that wait or run in the background; `'all'` stores every run. */
  storeRuns?: 'stateful' | 'all'
  /** Serve MCP at `/mcp` (default true), or how to serve it. */
  mcp?: boolean | Mcp
  /** Serve Mastra's tool routes (`/api/tools`, `/api/tools/:toolId/execute`) for Mastra's own client (default true). */
  mastra?: boolean
  /**
   * Serve the playground at `GET /`, a page for trying the tools (behind `auth` like every route).
   * Default: on for requests to `localhost`, `127.0.0.1` or `[::1]` (local development), off elsewhere.
   */
  playground?: boolean
  /** Name and version announced to MCP clients. */
  server?: { name: string; version: string }
  /**
   * The app is served on a loopback address (SPEC §5): it then answers only requests whose `Host`
   * is `localhost`, `127.0.0.1` (any 127.x address) or `[::1]`, with any port, or a name of
   * `allowedHosts`, refusing every other with `403 FORBIDDEN` on every route before anything runs
   * (DNS rebinding), and lets pages of this machine call `/mcp` and act on runs. Set by whoever
   * knows how the app is served, never from a request: the entry `toolroute build` writes for
   * `toolroute dev` and `wrangler dev` (not for `toolroute deploy` nor wrangler's deploy builds),
   * Deno's `serveTools` on a loopback `hostname`. Default false.
   */
  servedLocally?: boolean
  /**
   * Host names a locally served app (`servedLocally`) answers besides loopback ones, with any
   * port: `'my-laptop.local'`, `'192.168.1.20'`, or `'.example.test'` for that name and every name
   * under it (a tunnel, a proxy in front of `toolroute dev`). Not read when the app is not served locally.
   */
  allowedHosts?: readonly string[]
}

/** Variables the middleware chain sets on the context. */
export interface ToolAppVariables {
  tool: AnyTool
  requestContext: Record<string, unknown>
  /** The request context as the caller sent it, before the tool's schema: what a stored run keeps. */
  sentRequestContext: Record<string, unknown>
  principal: string | null
}

/** The app's Hono environment: any bindings, and the variables its middleware sets. */
export type ToolAppEnv = { Variables: ToolAppVariables; Bindings: any }
