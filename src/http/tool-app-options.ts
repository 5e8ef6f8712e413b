import type { Context, Env, MiddlewareHandler } from 'hono'
import type { cors } from 'hono/cors'
import type { CallerOptions, EnvContext } from '../caller/caller-options.ts'
import type { VerifiedToken } from '../caller/verified-token.ts'
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunLimits } from '../runs/run-limits.ts'
import type { LazyTools } from '../manifest/lazy-tools.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { CallTracer } from '../runs/call-tracer.ts'

/** Options of `createToolApp`; `Mcp` is what its `mcp` option may hold, named by the composer passing MCP. */
export interface ToolAppOptions<E extends Env = any, Mcp extends object = object> extends CallerOptions<E> {
  /** The tools: an array, an object of them (a module's exports), or a build's `LazyTools` (`.toolroute/manifest.ts`). */
  tools: readonly AnyTool[] | Readonly<Record<string, AnyTool>> | LazyTools
  /** Where the routes are mounted (default `/`). */
  basePath?: string
  /** OAuth 2.1 on every route and `/mcp` (SPEC §15, docs/auth.md): JWTs of `issuer` for `audience` (default: this URL), or this Worker's own server (`provider: 'builtin'`, users signed in by the `signIn` module); `scopes` for every tool, `toolScopes` by id. */
  oauth?: ({ issuer: string; audience?: string | readonly string[] } | { provider: 'builtin'; signIn?: string }) & { scopes?: readonly string[]; toolScopes?: Readonly<Record<string, readonly string[]>> }
  /** Any Hono middleware run before every route, e.g. `bearerAuth({ token })` from `hono/bearer-auth`. */
  auth?: MiddlewareHandler<E> | readonly MiddlewareHandler<E>[]
  /** OpenTelemetry spans of every call, sent over OTLP/HTTP to `endpoint` (default `OTEL_EXPORTER_OTLP_ENDPOINT`; SPEC §17, docs/observability.md). */
  tracing?: { serviceName?: string; endpoint?: string; headers?: Readonly<Record<string, string>> }
  /** Silence before a stream sends `: keep-alive`, so proxies keep it open (default 15 000 ms, SPEC §3). */
  keepAliveMs?: number
  /** Largest accepted request body in bytes (default 1 MiB). */
  maxInputBytes?: number
  /**
   * CORS for browsers: `true` for `hono/cors` defaults, or its options. Off by default. The
   * origins it names may also act on runs from a page (SPEC §12); `*` only with a JSON body.
   */
  cors?: boolean | Parameters<typeof cors>[0]
  /**
   * Where durable runs live: a `RunHost`, or one per request (given `{ env }` alone inside an MCP session
   * object). Default: in memory (`toolroute/server`), the `TOOLROUTE_RUNS` Durable Objects (`createWorker`).
   */
  runs?: RunHost | ((c: EnvContext<E>) => RunHost)
  /** How far a run's event log may grow (SPEC §12 "Bounded runs"); a `runs` of your own takes its own. */
  runLimits?: RunLimits
  /**
   * Where `Idempotency-Key`s live (SPEC §9): one store or one per request. Default: in memory
   * (`toolroute/server`), the `TOOLROUTE_IDEMPOTENCY` Durable Objects (`createWorker`). `false` ignores the header.
   */
  idempotency?: boolean | IdempotencyStore | ((c: Context<E>) => IdempotencyStore)
  /** `'stateful'` (default) stores only runs that wait or run in the background; `'all'` stores every run. */
  storeRuns?: 'stateful' | 'all'
  /** Serve MCP at `/mcp` (default true), or how to serve it. */
  mcp?: boolean | Mcp
  /** Serve Mastra's tool routes (`/api/tools`, `/api/tools/:toolId/execute`) for Mastra's own client (default true). */
  mastra?: boolean
  /** Serve `GET /openapi.json` (default true). */
  openapi?: boolean
  /** Serve the playground at `GET /` (behind `auth`). Default: on for `localhost`, `127.0.0.1`, `[::1]` only. */
  playground?: boolean
  /** Name and version announced to MCP clients. */
  server?: { name: string; version: string }
  /**
   * The app is served on a loopback address (SPEC §5): it answers only a loopback `Host` or one in `allowedHosts`,
   * and lets this machine's pages call `/mcp` and act on runs. Set by whoever serves the app, never from a request. Default false.
   */
  servedLocally?: boolean
  /** Told when a run waits or settles, signed per Standard Webhooks (`secret`: `whsec_`, base64); needs `publicUrl` (SPEC §16, docs/runs.md). */
  webhooks?: readonly { url: string; secret: string; events?: readonly ('run.waiting' | 'run.settled')[]; retryDelaysMs?: readonly number[] }[]
  /** The URL the routes are served at (origin and base path), e.g. `https://tools.example.com`: the base of a webhook's links. */
  publicUrl?: string
  /** Host names a locally served app also answers, any port; `'.example.test'` is that name and every name under it. */
  allowedHosts?: readonly string[]
}

/** Variables the middleware chain sets on the context. */
export interface ToolAppVariables {
  tool: AnyTool
  requestContext: Record<string, unknown>
  /** The request context as the caller sent it, before the tool's schema: what a stored run keeps. */
  sentRequestContext: Record<string, unknown>
  principal: string | null
  /** The access token `oauth` verified (SPEC §15), for `resolveRequestContext` and `principal` to read. */
  verifiedToken?: VerifiedToken
  /** The call's span, when `tracing` made one: its ids (the call's trace) and its child spans. */
  callTrace?: ReturnType<CallTracer>
}

/** The app's Hono environment: any bindings, and the variables its middleware sets. */
export type ToolAppEnv = { Variables: ToolAppVariables; Bindings: any }
