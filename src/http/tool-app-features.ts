import type { Context, Hono } from 'hono'
import type { cors } from 'hono/cors'
import type { checkHost } from './middleware/check-host.ts'
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts'
import type { PlaygroundPageLoader } from '../playground/load-playground-page.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunLimits } from '../runs/run-limits.ts'
import type { RunStore } from '../runs/run-store.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { CallTracer } from '../runs/call-tracer.ts'
import type { idempotentCall } from './idempotent-call.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { JsonAnswer } from './json-answer-of.ts'
import type { ToolAppEnv, ToolAppOptions } from './tool-app-options.ts'

/** What answers a call that has an `Idempotency-Key` (`idempotentCall`). */
export type IdempotentCall = typeof idempotentCall

/** Mastra's execute, handed to the app's call: its input, the headers it stands in for (with the body's context), its answer. */
export type MastraCall = { data: unknown; headers?: Headers | undefined; answer: JsonAnswer }

/** What serves `/mcp`, made once per app (`createMcpEndpoint` is one): http/ knows MCP by this shape alone. */
export type McpHandlerFactory = (deps: {
  tools: ReadonlyMap<string, AnyTool>
  options: ToolAppOptions<any, any>
  runs: (c: Context) => RunHost
  tracer?: CallTracer | undefined
}) => (c: Context) => Response | Promise<Response>

/** The features an app may leave out, passed by its composer: http/ imports none, so an app bundles only these. */
export interface ToolAppFeatures {
  /** What keeps runs when the options give no `runs`, made on first use; without either none can exist (SPEC §11). */
  runs?: (tools: ReadonlyMap<string, AnyTool>, options: { runLimits?: RunLimits; storeWith?: (store: RunStore) => RunStore; tracer?: CallTracer }) => RunHost
  /** What tells the options' `webhooks` of the runs `runs` keeps, by wrapping its store (`memoryWebhooks`). */
  webhooks?: (options: ToolAppOptions) => (store: RunStore) => RunStore
  /** Idempotent calls (SPEC §9): `call` answers a keyed call; `keys` is where keys live when the options name no store. */
  idempotency?: { call: IdempotentCall; keys?: () => IdempotencyStore }
  /** What renders the playground page (`loadPlaygroundPage`). Without it `GET /` answers `404 TOOL_NOT_FOUND`, saying why. */
  playground?: PlaygroundPageLoader
  /** What serves `/mcp` (`createMcpEndpoint`), unless the options say `mcp: false`. */
  mcp?: McpHandlerFactory
  /** What builds `GET /openapi.json` (`openApiDocumentOf` of `extra-routes/`), unless the options say `openapi: false`; without it the route is not served. */
  openApi?: (tools: readonly ToolDescriptor[], options: { basePath: string; server?: { name: string; version: string } | undefined }) => object
  /** Mastra's routes (`mountMastraRoutes` of `extra-routes/`), unless the options say `mastra: false`: `call` is the app's own call. */
  mastra?: (
    app: Hono<ToolAppEnv>,
    options: { descriptors: () => Promise<ReadonlyMap<string, ToolDescriptor>>; maxInputBytes: number; call: (c: Context<ToolAppEnv>, toolId: string, mastra: MastraCall) => Promise<Response> },
  ) => void
  /** Hono's `cors`, for the `cors` option: an app without the option bundles none. */
  cors?: typeof cors
  /** The Host check of a locally served app (`checkHost`), for `servedLocally`: a deployed Worker bundles none. */
  checkHost?: typeof checkHost
  /** The OAuth resource server (`oauthGuard` of `oauth/`), for the `oauth` option: it mounts its metadata routes and its token check first. */
  oauth?: (app: Hono<ToolAppEnv>, options: { oauth: NonNullable<ToolAppOptions['oauth']>; basePath: string }) => void
  /** A span per call exported over OTLP (`mountTracing` of `tracing/`), for the `tracing` option: it traces the HTTP calls, and gives MCP and the runs its tracer. */
  tracing?: (app: Hono<ToolAppEnv>, options: { tracing: NonNullable<ToolAppOptions['tracing']>; basePath: string }) => CallTracer
}
