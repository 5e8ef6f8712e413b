import type { Hono } from 'hono'
import { createToolApp } from '../../http/create-tool-app.ts'
import { openApiDocumentOf } from '../../extra-routes/openapi.ts'
import { mountMastraRoutes } from '../../extra-routes/mastra-routes.ts'
import { cors } from 'hono/cors'
import { checkHost } from '../../http/middleware/check-host.ts'
import { oauthGuard } from '../../oauth/oauth-guard.ts'
import { mountTracing } from '../../tracing/mount-tracing.ts'
import { loadPlaygroundPage } from '../../playground/load-playground-page.ts'
import { createMcpEndpoint } from '../../mcp/create-mcp-endpoint.ts'
import { idempotentCall } from '../../http/idempotent-call.ts'
import { setJsonSchemaValidator } from '../../schema/json-schema-validator.ts'
import { cfworkerJsonSchema } from '../../schema/cfworker-json-schema.ts'
import type { ToolAppEnv, ToolAppOptions } from '../../http/tool-app-options.ts'
import type { ToolAppMcpOptions } from '../../mcp/mcp-app-options.ts'
import { toolRegistry } from '../../manifest/tool-registry.ts'
import { createRunEngine, type RunEngine, type RunEngineOptions } from '../../runs/create-run-engine.ts'
import { driveRuns } from '../../runs/drive-runs.ts'
import type { RunStore } from '../../runs/run-store.ts'
import { createDenoKvRunStore } from './deno-kv-run-store.ts'
import { createDenoKvIdempotencyStore, denoKvKeySweepPrefix } from './deno-kv-idempotency-store.ts'
import { openInterruptedRun } from '../../idempotency/interrupted-call.ts'
import { withRunIndex } from '../../runs/with-run-index.ts'
import { createDenoKvRunIndex } from './create-deno-kv-run-index.ts'
import { createDenoKvScheduler } from './create-deno-kv-scheduler.ts'
import { unlessBusy } from './kv-text.ts'

/** Options of `createDenoToolApp`: the app's, with runs in a Deno KV database. */
export interface DenoToolAppOptions extends Omit<ToolAppOptions<any, ToolAppMcpOptions>, 'runs'>, Pick<RunEngineOptions, 'ttlMs' | 'retentionMs'> {
  /** The Deno KV database runs live in. */
  kv: Deno.Kv
  /**
   * Expiry, retention and background attempts through the database's queue (default true). A
   * `Deno.Kv` handle has one queue listener: pass `false` if the app listens to it itself (runs
   * then still expire when read, and background work runs in the process that starts it).
   */
  queue?: boolean
  /** How long a call's lease on its run and its key lasts unrenewed before it counts as crashed (default 30 s, SPEC §12). */
  leaseMs?: number
  /** How often followers poll for events another process on the database wrote (default 1000 ms; within one, a change wakes them). */
  pollMs?: number
}

/** The app, the engine behind its runs, and the store they live in. */
export interface DenoToolApp {
  app: Hono<ToolAppEnv>
  engine: RunEngine
  store: RunStore
}

/**
 * The tool app with durable runs in Deno KV: the same routes, SSE and MCP as on Workers; a run's
 * transitions are compare-and-set commits, so approvals and resumes execute exactly once.
 *
 * @example
 * const kv = await Deno.openKv()
 * const { app } = await createDenoToolApp({ tools: [weatherTool], kv })
 * Deno.serve(app.fetch)
 */
export async function createDenoToolApp(options: DenoToolAppOptions): Promise<DenoToolApp> {
  const { kv, queue = true, ttlMs, retentionMs, leaseMs, pollMs = 1000, ...appOptions } = options
  const tools = toolRegistry(appOptions.tools)
  const scheduler = queue ? createDenoKvScheduler(kv) : undefined
  // Webhooks (SPEC §16) and each run's index entry are written in the commit that stores the run (the engine only
  // removes entries); webhooks are sent by the scheduler, and imported only when configured.
  const webhooks = appOptions.webhooks?.length ? (await import('../../webhooks/deno-kv-webhooks.ts')).denoKvWebhooks(appOptions, { kv, scheduleIn: scheduler?.scheduleIn, unlessBusy }) : undefined
  const index = createDenoKvRunIndex(kv)
  const kept = createDenoKvRunStore(kv, index.writes, ...(webhooks?.writes ? [webhooks.writes] : []))
  const store = webhooks ? webhooks.store(kept) : kept
  const schedule = scheduler?.schedule
  // A run's later steps are spans of the tracer `tracing` mounts (SPEC §17), once the app has mounted it.
  let tracer: ReturnType<typeof mountTracing> | undefined
  const engine = createRunEngine({ drive: driveRuns(tools, (toolId, from) => tracer?.(toolId, from)), store, index: { remove: index.remove }, pollMs, ttlMs, retentionMs, runLimits: appOptions.runLimits, leaseMs, schedule })
  // Keys in the same database, kept as long as the runs they replay; a key whose call was cut off
  // leaves its run failed.
  const keys = createDenoKvIdempotencyStore(kv, { retentionMs, leaseMs, schedule, onInterrupted: async (lease) => openInterruptedRun(engine, lease) })
  // One queue for all: a key's sweep and a webhook's are named apart from every run id (a UUID).
  await scheduler?.start((id) => (id.startsWith(denoKvKeySweepPrefix) ? keys.sweep(id) : (webhooks?.sweep(id) ?? engine.sweep(id))))
  const idempotency = appOptions.idempotency ?? keys
  setJsonSchemaValidator(cfworkerJsonSchema)
  const app = createToolApp({ ...appOptions, runs: withRunIndex(engine, index), idempotency }, { idempotency: { call: idempotentCall }, playground: loadPlaygroundPage, mcp: createMcpEndpoint, openApi: openApiDocumentOf, mastra: mountMastraRoutes, cors, checkHost, oauth: oauthGuard, tracing: (app, settings) => (tracer = mountTracing(app, settings)) })
  return { app, engine, store }
}
