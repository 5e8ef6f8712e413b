/** `toolroute/server`: the runtime-neutral server pieces (Hono app, run engine, stores). */
import { createToolApp as createHttpToolApp } from './http/create-tool-app.ts'
import type { ToolAppOptions as HttpToolAppOptions } from './http/tool-app-options.ts'
import type { ToolAppMcpOptions } from './mcp/mcp-app-options.ts'
import type { Env, Hono } from 'hono'
import type { ToolAppEnv } from './http/tool-app-options.ts'
import { loadPlaygroundPage } from './playground/load-playground-page.ts'
import { createMcpEndpoint } from './mcp/create-mcp-endpoint.ts'
import { cors } from 'hono/cors'
import { checkHost } from './http/middleware/check-host.ts'
import { oauthGuard } from './oauth/oauth-guard.ts'
import { mountTracing } from './tracing/mount-tracing.ts'
import { idempotentCall } from './http/idempotent-call.ts'
import { openApiDocumentOf } from './extra-routes/openapi.ts'
import { mountMastraRoutes } from './extra-routes/mastra-routes.ts'
import { createMemoryRunHost } from './store/memory/create-memory-run-host.ts'
import { createMemoryIdempotencyStore } from './store/memory/memory-idempotency-store.ts'
import { cfworkerJsonSchema } from './schema/cfworker-json-schema.ts'
import { setJsonSchemaValidator } from './schema/json-schema-validator.ts'
import { memoryWebhooks } from './webhooks/memory-webhooks.ts'

export { defaultMaxInputBytes } from './caller/read-body.ts'
export type { ToolAppEnv } from './http/tool-app-options.ts'
export type { ToolAppMcpOptions } from './mcp/mcp-app-options.ts'

/** Options of `createToolApp`: what a real deployment sets, `/mcp`'s options included. */
export type ToolAppOptions<E extends Env = any> = HttpToolAppOptions<E, ToolAppMcpOptions<E>>
export { loadPlaygroundPage, type PlaygroundPageLoader } from './playground/load-playground-page.ts'

/**
 * The tools as a Hono app (routes, SSE, runs, MCP, the playground), on any runtime: every feature
 * on, runs and keys in memory unless the options name a store, plain JSON Schemas checked.
 *
 * @example
 * const app = createToolApp({ tools: [weatherTool] })
 * export default app // or serve(app.fetch) under Node, Deno.serve(app.fetch) under Deno
 */
export const createToolApp = (options: ToolAppOptions): Hono<ToolAppEnv> => {
  setJsonSchemaValidator(cfworkerJsonSchema)
  return createHttpToolApp(options, { runs: createMemoryRunHost, idempotency: { call: idempotentCall, keys: createMemoryIdempotencyStore }, playground: loadPlaygroundPage, mcp: createMcpEndpoint, openApi: openApiDocumentOf, mastra: mountMastraRoutes, cors, checkHost, oauth: oauthGuard, webhooks: memoryWebhooks, tracing: mountTracing })
}
export { toToolDescriptor } from './manifest/to-tool-descriptor.ts'
export type { ToolDescriptor } from './protocol/tool-descriptor.ts'
export { createOpenApiDocument } from './extra-routes/openapi.ts'
export { createRunEngine } from './runs/create-run-engine.ts'
export { driveRuns } from './runs/drive-runs.ts'
export { defaultRunTtlMs } from './runs/run-lifetime.ts'
export type { RunEngine, RunEngineOptions } from './runs/create-run-engine.ts'
export type { RunHost, RunSegment, RunCaller, RunEventPage } from './runs/run-host.ts'
export type { RunStore, TransitionResult } from './runs/run-store.ts'
export type { RunLimits } from './runs/run-limits.ts'
export type { RunRecord } from './runs/run-record.ts'
export type { RunStatus, RunView } from './protocol/call-result.ts'
export type { WebhookBody } from './webhooks/webhook-body.ts'
export { createMemoryRunStore } from './store/memory/memory-run-store.ts'
export { createEventProjector } from './runs/create-event-projector.ts'
export { encodeSseEvent, sseHeaders } from './protocol/encode-sse.ts'
export type { IdempotencyStore, IdempotencyScope, IdempotencyBegin, IdempotencyClaim, IdempotentAnswer } from './idempotency/idempotency-store.ts'
export { createMemoryIdempotencyStore }
export { LazyTools } from './manifest/lazy-tools.ts'
export type { LazyToolsOptions } from './manifest/lazy-tools.ts'
export type { ToolRoute, ToolListings } from './manifest/tool-manifest.ts'
export type { OpenApiDocument } from './extra-routes/openapi.ts'
