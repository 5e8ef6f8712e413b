import type { Hono } from 'hono'
import { createToolApp } from '../../http/create-tool-app.ts'
import type { ToolAppEnv, ToolAppOptions } from '../../http/tool-app-options.ts'
import type { ToolAppFeatures } from '../../http/tool-app-features.ts'
import type { ToolAppMcpOptions } from '../../mcp/mcp-app-options.ts'
import { toolRegistry } from '../../manifest/tool-registry.ts'
import { createNoRunHost } from '../../runs/create-no-run-host.ts'
import type { RunHost } from '../../runs/run-host.ts'
import { runStoreReasons } from '../../runs/run-store-reasons.ts'
import type { IdempotencyStore } from '../../idempotency/idempotency-store.ts'
import { LazyTools } from '../../manifest/lazy-tools.ts'
import type { WorkerKeyStore, WorkerKeyStoreContext } from './worker-key-store.ts'
import type { RunObjectMount, ToolRunObjectOptions } from './create-run-object-class.ts'
import type { WorkerMcp, WorkerMcpContext } from './worker-mcp-server.ts'
import type { PlaygroundPageLoader } from '../../playground/load-playground-page.ts'
import { setJsonSchemaValidator, type JsonSchemaValidator } from '../../schema/json-schema-validator.ts'
import type { WorkerRunStore, WorkerRunStoreContext } from './worker-run-store.ts'
import { runsBinding } from './runs-binding.ts'
import type { ObjectTracer } from '../../runs/call-tracer.ts'

/** The Durable Object binding that holds MCP sessions, one object per `Mcp-Session-Id`. Without it, MCP is stateless. */
export const mcpSessionsBinding = 'TOOLROUTE_MCP'
/** The Durable Object binding that holds `Idempotency-Key`s, one object per principal and key (SPEC §9). */
export const idempotencyBinding = 'TOOLROUTE_IDEMPOTENCY'

/** What a deployment configures in `toolroute.config.ts` (everything but the tools, found in `tools/`). */
export type ToolrouteConfig = Omit<ToolAppOptions<any, ToolAppMcpOptions>, 'tools' | 'runs'> &
  ToolRunObjectOptions & {
    /**
     * A custom run host per request (e.g. Workers KV); default: the `TOOLROUTE_RUNS` Durable Objects.
     * Inside an MCP session object there is no request: a function here is called with `{ env }`.
     */
    runs?: ToolAppOptions['runs']
    /** How long an idle MCP session is kept (default 24 h). */
    mcpSessionTtlMs?: number
  }

/** Identity helper that types `toolroute.config.ts`. */
export function defineConfig(config: ToolrouteConfig): ToolrouteConfig {
  return config
}

/** `workerMcpServer`, or another factory of `/mcp` on Workers. */
export type WorkerMcpFactory = (context: WorkerMcpContext) => WorkerMcp
/** `workerKeyStore`, or another factory of `Idempotency-Key` handling on Workers. */
export type WorkerKeyStoreFactory = (context: WorkerKeyStoreContext) => WorkerKeyStore
/** `workerRunStore` / `workerFinishedRunStore`, or another factory of runs on Workers. */
export type WorkerRunStoreFactory = (context: WorkerRunStoreContext) => WorkerRunStore

/**
 * What `createWorker` returns: the app and its `fetch`, and the class of each feature the entry
 * passed in (`IdempotencyObject` with a `keyStore`, `ToolRunObject` with a `runStore`,
 * `McpSessionObject` with an `mcpServer`); a class bound for a feature left out is the entry's to declare.
 */
export type Worker<R extends WorkerRunStoreFactory | undefined, M extends WorkerMcpFactory | undefined, K extends WorkerKeyStoreFactory | undefined> = {
  app: Hono<ToolAppEnv>
  fetch: Hono<ToolAppEnv>['fetch']
} & (K extends WorkerKeyStoreFactory ? { IdempotencyObject: WorkerKeyStore['IdempotencyObject'] } : unknown) &
  (R extends WorkerRunStoreFactory ? { ToolRunObject: WorkerRunStore['ToolRunObject'] } : unknown) &
  (M extends (context: WorkerMcpContext) => { McpSessionObject: infer O } ? { McpSessionObject: O } : unknown)

/**
 * A Worker serving `tools`: its `fetch`, and the Durable Object classes its keys, runs and MCP
 * sessions live in (export them under the class names bound in wrangler.toml). Each feature is
 * passed in (`keyStore`, `mcpServer`, `runStore`, `jsonSchema`, `playgroundPage`, `openApi`, `mastraRoutes`), so what a Worker
 * does not use it does not bundle; `toolroute build` passes each only when the app can use it
 * (docs/configuration.md). A call that needs what was not passed fails (`/runs/:runId` answers
 * `RUN_NOT_FOUND`, `/mcp` 404), and the first request logs a missing key store, run store or MCP server.
 *
 * @example
 * const worker = createWorker({ tools: [weatherTool], keyStore: workerKeyStore, mcpServer: workerMcpServer, runStore: workerRunStore, openApi: workerOpenApi })
 * export default worker
 * export class ToolRunObject extends worker.ToolRunObject {}
 * export class McpSessionObject extends worker.McpSessionObject {}
 * export class IdempotencyObject extends worker.IdempotencyObject {}
 */
export function createWorker<
  R extends WorkerRunStoreFactory | undefined = undefined,
  M extends WorkerMcpFactory | undefined = undefined,
  K extends WorkerKeyStoreFactory | undefined = undefined,
>(
  config: ToolrouteConfig & {
    tools: ToolAppOptions['tools']
    mcpServer?: M
    runStore?: R
    keyStore?: K
    /** What checks plain JSON Schemas (`workerJsonSchema`), registered for the isolate. */
    jsonSchema?: JsonSchemaValidator
    /** What renders the playground page (`loadPlaygroundPage`): without it `GET /` answers 404, saying why. */
    playgroundPage?: PlaygroundPageLoader
    /** `GET /openapi.json`'s builder (`workerOpenApi`) and Mastra's routes (`workerMastraRoutes`): each served only when passed. */
    openApi?: ToolAppFeatures['openApi']
    mastraRoutes?: ToolAppFeatures['mastra']
    /** What the options may need: Hono's `cors` (`workerCors`) for `cors`, the Host check (`workerHostCheck`) for `servedLocally`. */
    corsMiddleware?: ToolAppFeatures['cors']
    hostCheck?: ToolAppFeatures['checkHost']
    /** The OAuth resource server (`workerOAuth`) for `oauth`. */
    oauthGuard?: ToolAppFeatures['oauth']
    /** The spans of every call (`workerTracing`) for `tracing`; its `inObject` traces inside the run and MCP session objects. */
    tracer?: ToolAppFeatures['tracing'] & { inObject?: (tracing: NonNullable<ToolAppOptions['tracing']>) => ObjectTracer }
    /** What tells the config's `webhooks` (`workerWebhooks`), from each run's object and its alarm. */
    webhookSender?: (config: ToolrouteConfig) => RunObjectMount
  },
): Worker<R, M, K> {
  const tools = toolRegistry(config.tools)
  const binding = (env: unknown, name: string) => (env as Record<string, DurableObjectNamespace | undefined> | undefined)?.[name]
  const { mcpServer, runStore: runStoreOf, keyStore: keyStoreOf, jsonSchema, playgroundPage, openApi, mastraRoutes, corsMiddleware, hostCheck, oauthGuard, tracer, webhookSender, ...options } = config
  const inObject = config.tracing ? tracer?.inObject?.(config.tracing) : undefined
  const runStore = runStoreOf?.({ tools, options: config, mount: config.webhooks?.length ? webhookSender?.(config) : undefined, tracer: inObject })
  const noRuns = createNoRunHost('createWorker got no `runStore`: pass `runStore: workerRunStore` (from toolroute/workers), as toolroute build does when a call can reach a run')
  const required = (env: unknown, name: string, neededBy: string): DurableObjectNamespace => {
    const namespace = binding(env, name)
    if (!namespace) throw new Error(`Durable Object binding ${name} is missing from wrangler.toml (needed by ${neededBy})`)
    return namespace
  }
  const runsOf = (env: unknown): RunHost =>
    runStore ? runStore.host(required(env, runsBinding, 'runs that wait for a human or run in the background, and by calls with an Idempotency-Key')) : noRuns
  // Inside an object there is no request: a run host function gets `{ env }`.
  const objectRuns = (env: unknown): RunHost => (typeof config.runs === 'function' ? config.runs({ env }) : (config.runs ?? runsOf(env)))
  const keyStore = keyStoreOf?.({ runs: objectRuns, options: { retentionMs: config.retentionMs, leaseMs: config.leaseMs } })
  // A keyed call without the binding fails loudly rather than executing without its guarantee;
  // `idempotency: false` in the config ignores the header instead.
  const keysOf = (store: WorkerKeyStore, env: unknown): IdempotencyStore => store.store(required(env, idempotencyBinding, 'calls with an Idempotency-Key'))
  const mcpOptions = config.mcp === false ? undefined : typeof config.mcp === 'object' ? config.mcp : {}
  // Made whenever passed, so that the entry's McpSessionObject exists; `/mcp` is mounted only when served.
  const mcp = mcpServer?.({
    ...options,
    tools,
    runs: objectRuns,
    sessionNamespace: (env) => binding(env, mcpSessionsBinding),
    mcp: mcpOptions ?? {}, tracer: inObject,
  })
  if (jsonSchema) setJsonSchemaValidator(jsonSchema)
  const app = createToolApp(
    {
      ...options,
      runs: config.runs ?? ((c) => runsOf(c.env)),
      ...(config.idempotency !== undefined ? { idempotency: config.idempotency } : keyStore ? { idempotency: (c) => keysOf(keyStore, c.env) } : {}),
      // Sessions go to the object named by their id when the binding exists; stateless otherwise.
      mcp: mcp && mcpOptions ? { ...mcpOptions, sessions: mcpOptions.sessions ?? mcp.sessions } : false,
    },
    {
      ...(keyStore ? { idempotency: { call: keyStore.call } } : {}),
      ...(mcp && mcpOptions ? { mcp: mcp.handler } : {}),
      ...(playgroundPage ? { playground: playgroundPage } : {}),
      openApi, mastra: mastraRoutes, cors: corsMiddleware, checkHost: hostCheck, oauth: oauthGuard, tracing: tracer,
    },
  )
  // What is missing is told once, at the isolate's first request, not found out at the first call that
  // needs it (`toolroute build` checks wrangler.toml before that).
  let checked = false
  const fetch: Hono<ToolAppEnv>['fetch'] = (request, env, executionContext) => {
    if (!checked) {
      checked = true
      if (config.idempotency !== false && !keyStore) {
        console.error('toolroute: createWorker got no `keyStore`, so calls with an Idempotency-Key fail: pass `keyStore: workerKeyStore` (from toolroute/workers), or set `idempotency: false` to ignore the header')
      }
      if (mcpOptions && !mcpServer) {
        console.error('toolroute: createWorker got no `mcpServer`, so /mcp is not served: pass `mcpServer: workerMcpServer` (from toolroute/workers), or set `mcp: false`')
      }
      const reasons = config.runs === undefined && !runStore ? runStoreReasons(tools instanceof LazyTools ? tools.routes.values() : tools.values(), config) : []
      if (reasons.length > 0) {
        console.error(`toolroute: createWorker got no \`runStore\`, so this Worker keeps no runs, but ${reasons.join('; ')}: those calls fail with EXECUTION_FAILED until you pass \`runStore: workerRunStore\` (from toolroute/workers)`)
      }
      if (config.runs === undefined && runStore && !binding(env, runsBinding)) {
        console.error(
          `toolroute: no Durable Object binding ${runsBinding} (class_name = "ToolRunObject") in wrangler.toml: calls that wait for approval, suspend or run in the background, and calls with an Idempotency-Key, will fail until it is added (or set \`runs\` in toolroute.config.ts)`,
        )
      }
    }
    return app.fetch(request, env, executionContext)
  }
  return {
    app,
    fetch,
    ...(keyStore ? { IdempotencyObject: keyStore.IdempotencyObject } : {}),
    ...(runStore ? { ToolRunObject: runStore.ToolRunObject } : {}),
    ...(mcp?.McpSessionObject ? { McpSessionObject: mcp.McpSessionObject } : {}),
  } as Worker<R, M, K>
}
