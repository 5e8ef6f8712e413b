import type { PlaygroundPageLoader } from '../playground/load-playground-page.ts'
import type { Context, Env, MiddlewareHandler } from 'hono'
import type { cors } from 'hono/cors'
import type { McpSessionHost } from '../mcp/mcp-session-host.ts'
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/** Options of `createToolApp`: what a real deployment sets, in one config file of its own. */
export interface ToolAppOptions<E extends Env = any> {
  /** The tools to serve: an array, or an object of them (a module's exports). */
  tools: readonly AnyTool[] | Readonly<Record<string, AnyTool>>
  /** Where the routes are mounted (default `/`). */
  basePath?: string
  /**
   * Derives the request context from verified auth (a JWT's claims, a session…). When set, it
   * wins over the `x-request-context` header; return `undefined` to fall back to the header.
   */
  resolveRequestContext?: (c: Context<E>) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>
  /** Any Hono middleware run before every route, e.g. `bearerAuth({ token })` from `hono/bearer-auth`. */
  auth?: MiddlewareHandler<E> | readonly MiddlewareHandler<E>[]
  /**
   * Who owns the runs a request creates. Default: a hash of the `authorization` header, so a
   * run answers only the credential that created it; `null` when there is none.
   */
  principal?: (c: Context<E>, requestContext: Record<string, unknown>) => string | null | Promise<string | null>
  /**
   * How long an event stream may stay silent before a `: keep-alive` comment goes out (default
   * 15 000 ms, SPEC §3), so proxies do not close an idle follower.
   */
  keepAliveMs?: number
  /** Largest accepted request body in bytes (default 1 MiB). */
  maxInputBytes?: number
  /** CORS for browsers: `true` for `hono/cors` defaults, or its options. Off by default. */
  cors?: boolean | Parameters<typeof cors>[0]
  /** Where durable runs live: a `RunHost`, or one per request (Durable Objects need `env`). Default: in memory. */
  runs?: RunHost | ((c: Context<E>) => RunHost)
  /**
   * Idempotent calls (SPEC §9): where `Idempotency-Key`s live, one store or one per request
   * (`createWorker` uses the `TOOLROUTE_IDEMPOTENCY` Durable Objects). Default: in memory, this
   * process. `false` ignores the header.
   */
  idempotency?: boolean | IdempotencyStore | ((c: Context<E>) => IdempotencyStore)
  /** `'stateful'` (default) stores only runs that wait or run in the background; `'all'` stores every run. */
  storeRuns?: 'stateful' | 'all'
  /** Serve MCP at `/mcp` (default true), or how to serve it. */
  mcp?: boolean | ToolAppMcpOptions<E>
  /** Serve Mastra's tool routes (`/api/tools`, `/api/tools/:toolId/execute`) for Mastra's own client (default true). */
  mastra?: boolean
  /**
   * Serve the playground at `GET /`, a page for trying the tools (behind `auth` like every route).
   * Default: on for requests to `localhost`, `127.0.0.1` or `[::1]` (local development), off elsewhere.
   */
  playground?: boolean
  /**
   * What renders the playground page. `toolroute/server`'s `createToolApp` and the Deno adapter set
   * it; on Workers the generated entry passes `loadPlaygroundPage` unless the config has
   * `playground: false`, so such a Worker does not bundle the page. Without it `GET /` is not served.
   */
  playgroundPage?: PlaygroundPageLoader
  /** Name and version announced to MCP clients. */
  server?: { name: string; version: string }
}

/** How `/mcp` keeps sessions and waits for the user. */
export interface ToolAppMcpOptions<E extends Env = any> {
  /**
   * Where sessions live, for clients that declare elicitation (tools may ask them questions):
   * `'memory'` (this process; the default under Node and Deno), `false` (every client served
   * statelessly; the default on Workers without `createWorker`), or a host per request
   * (`createWorker` uses the `TOOLROUTE_MCP` Durable Objects, one per session).
   */
  sessions?: 'memory' | false | ((c: Context<E>) => McpSessionHost | undefined)
  /** How long a question to the user (elicitation) waits for an answer (default 5 minutes). */
  elicitationTimeoutMs?: number
  /**
   * Origins allowed to send requests to `/mcp` (the transport spec's DNS-rebinding rule): a request
   * whose `Origin` is present and not listed is refused with 403 before any tool runs. Default: the
   * app's own origin, plus any localhost origin when the app itself is served on localhost.
   */
  allowedOrigins?: readonly string[]
  /**
   * The HMAC key (≥ 32 bytes) that seals a 2026-07-28 question's `requestState`. Every isolate that
   * may receive the client's retry needs the same one; default: `TOOLROUTE_MCP_STATE_KEY` from the
   * Worker's env, else a random key per isolate (enough for one process).
   */
  requestStateKey?: string
}

/** Variables the middleware chain sets on the context. */
export interface ToolAppVariables {
  tool: AnyTool
  requestContext: Record<string, unknown>
  principal: string | null
}
