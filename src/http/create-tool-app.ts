import type { Context, Hono, MiddlewareHandler } from 'hono'
import { HonoBase } from 'hono/hono-base'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { isHttpException } from './is-http-exception.ts'
import { allowedMethods } from './allowed-methods.ts'
import { ToolrouteError, toolNotFound } from '../errors/toolroute-error.ts'
import { createNoRunHost } from '../runs/create-no-run-host.ts'
import type { RunHost, RunSegment } from '../runs/run-host.ts'
import { startCall } from '../runtime/start-call.ts'
import { loadTool } from '../manifest/load-tool.ts'
import { callTool, responseModeOf } from './call-tool.ts'
import { jsonAnswerOf } from './json-answer-of.ts'
import { checkRunActionBody } from './check-run-action-body.ts'
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts'
import { deferOf } from '../caller/defer-of.ts'
import { errorResponse } from './error-response.ts'
import { guardAuth } from './middleware/guard-auth.ts'
import { guardRunAction } from './middleware/guard-run-action.ts'
import { deferredPrincipalOf, principalOf } from '../caller/principal-of.ts'
import { bodyInput } from '../caller/body-input.ts'
import { checkBodyHeaders } from '../caller/check-body-headers.ts'
import { readJsonBody } from '../caller/read-json-body.ts'
import { defaultMaxInputBytes } from '../caller/read-body.ts'
import { resolveRequestContext } from '../caller/resolve-request-context.ts'
import { runView, segmentResponse } from './run-response.ts'
import { listRuns } from './list-runs.ts'
import type { ToolAppEnv, ToolAppOptions } from './tool-app-options.ts'
import type { MastraCall, ToolAppFeatures } from './tool-app-features.ts'
import { LazyTools } from '../manifest/lazy-tools.ts'
import { toToolDescriptor } from '../manifest/to-tool-descriptor.ts'
import { toolRegistry } from '../manifest/tool-registry.ts'

import { uiMessageStreamDialectOf } from '../protocol/ui-message-chunk.ts'
import { mountPlayground, mountTokenPrompt } from './mount-playground.ts'
import type { CancelResult } from '../protocol/call-result.ts'
import { headerNames } from '../protocol/header-names.ts'

const once = <T>(compute: () => T | Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined
  return () => (value ??= Promise.resolve().then(compute))
}

/** A feature an option needs: its absence is the composer's mistake, refused where the app is made (never served without it). */
function required<T>(feature: T | undefined, option: string, worker: string): T {
  if (feature === undefined) throw new Error(`toolroute: \`${option}\` is set, but its middleware was not passed in: on Workers pass \`${worker}\` (from toolroute/workers) to createWorker, as toolroute build does`)
  return feature
}

const noKeys =
  'This call has an Idempotency-Key, but this app keeps no keys: pass `idempotency` (an IdempotencyStore) to createToolApp (on Workers, `keyStore: workerKeyStore` to createWorker), or `false` to ignore the header'

/**
 * The Hono app that serves tools: listing, calling (JSON or SSE), durable runs, MCP and OpenAPI. A call
 * is checked in the spec's order: tool, request context, body, input. `features` are what it may leave out.
 *
 * @example
 * const app = createToolApp({ tools: [weatherTool], auth: bearerAuth({ token }) })
 * export default app
 */
export function createToolApp(options: ToolAppOptions, features: ToolAppFeatures = {}): Hono<ToolAppEnv> {
  const tools = toolRegistry(options.tools)
  const maxInputBytes = options.maxInputBytes ?? defaultMaxInputBytes
  const basePath = options.basePath ?? '/'
  // Without `runs` no run can exist: its composer (toolroute/server, Deno, a Worker entry) brings
  // the run store as a feature, so this file imports none of it and a Worker that keeps no runs bundles none.
  let fallbackHost: RunHost | undefined
  const storeWith = options.webhooks?.length ? features.webhooks?.(options) : undefined
  const hostFor = (c: Context): RunHost => {
    if (typeof options.runs === 'function') return options.runs(c)
    if (options.runs) return options.runs
    if (features.runs) return (fallbackHost ??= features.runs(tools, { ...(options.runLimits ? { runLimits: options.runLimits } : {}), ...(storeWith ? { storeWith } : {}), ...(tracer ? { tracer } : {}) }))
    return (fallbackHost ??= createNoRunHost('pass `runs` (a RunHost) to createToolApp'))
  }
  let fallbackKeys: IdempotencyStore | undefined
  const idempotency = options.idempotency ?? true
  const keysFor = (c: Context): IdempotencyStore => {
    if (typeof idempotency === 'function') return idempotency(c as never)
    if (typeof idempotency === 'object') return idempotency
    if (features.idempotency?.keys) return (fallbackKeys ??= features.idempotency.keys())
    throw new ToolrouteError('EXECUTION_FAILED', noKeys)
  }
  const keyedCall = features.idempotency?.call
  // The one router the default settles on here (BENCHMARKS.md). It takes no static path beside a pattern: all tools share `/tools/:toolId`.
  const root = new HonoBase<ToolAppEnv>({ router: new RegExpRouter() })
  const app = root.basePath(basePath)
  app.onError((error, c) => {
    if (!isHttpException(error)) return errorResponse(c, error)
    if (error.status !== 401) return error.getResponse()
    return errorResponse(c, new ToolrouteError('UNAUTHORIZED', error.message || 'Unauthorized'))
  })
  // SPEC §2: a known path with another method is METHOD_NOT_ALLOWED (with `Allow`), an unknown route TOOL_NOT_FOUND.
  app.notFound((c) => {
    const methods = allowedMethods(app.routes, c.req.path)
    const allow = methods.join(', ')
    // A route that answers 404 itself (the playground off this host) is not a wrong method.
    if (!allow || methods.includes(c.req.method)) return c.json(new ToolrouteError('TOOL_NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`).toJSON(), 404)
    return c.json(new ToolrouteError('METHOD_NOT_ALLOWED', `${c.req.path} does not serve ${c.req.method}; it serves ${allow}`).toJSON(), 405, { allow })
  })
  // First: a foreign Host (DNS rebinding) meets no CORS, no auth, no route.
  if (options.servedLocally) app.use('*', required(features.checkHost, 'servedLocally', 'hostCheck: workerHostCheck')(options.allowedHosts))
  if (options.cors) {
    // Browsers read only exposed headers: the run's ids are how a page follows its call.
    const { exposeHeaders = [], ...corsOptions } = options.cors === true ? {} : options.cors
    app.use('*', required(features.cors, 'cors', 'corsMiddleware: workerCors')({ ...corsOptions, exposeHeaders: [...new Set([...exposeHeaders, headerNames.runId, headerNames.toolCallId])] }))
  }
  const tracer = options.tracing ? required(features.tracing, 'tracing', 'tracer: workerTracing')(app, { tracing: options.tracing, basePath }) : undefined
  const playground = { playground: options.playground, basePath, page: features.playground, root, auth: Boolean(options.auth || options.oauth) }
  if (playground.auth) mountTokenPrompt(app, playground)
  // Before `auth`: its metadata answers without credentials, its challenge is what a client signs in by.
  if (options.oauth) required(features.oauth, 'oauth', 'oauthGuard: workerOAuth')(app, { oauth: options.oauth, basePath })
  for (const middleware of [options.auth ?? []].flat()) app.use('*', guardAuth(middleware as MiddlewareHandler) as MiddlewareHandler<ToolAppEnv>)

  // The listings come from the build's manifest (no tool module evaluated), else from the tools.
  const descriptors = once(() => (tools instanceof LazyTools ? tools.listing('descriptors') : [...tools.values()].map(toToolDescriptor)))
  const byId = once(async () => new Map((await descriptors()).map((descriptor) => [descriptor.id, descriptor])))
  app.get('/tools', async (c) => c.json({ tools: await descriptors() }))
  app.get('/tools/:toolId', async (c) => {
    const descriptor = (await byId()).get(c.req.param('toolId'))
    if (!descriptor) throw toolNotFound(c.req.param('toolId'))
    return c.json(descriptor)
  })
  const answer = jsonAnswerOf(options)
  // A call, checked in the spec's order. Mastra's execute (`mastra-routes.ts`) has read its body and passes
  // its `data` in: the call without a second request through the app.
  const callRoute = async (c: Context<ToolAppEnv>, toolId: string, mastra?: MastraCall): Promise<Response> => {
    // Read once: in workerd each read of `request.headers` is a call into the runtime.
    const headers = mastra?.headers ?? c.req.raw.headers
    const tool = await loadTool(tools, toolId)
    if (!tool) throw toolNotFound(toolId)
    c.set('tool', tool)
    const caller = await resolveRequestContext(c, options, headers)
    const values = caller.requestContext
    const call = startCall(tool, values)
    if (!call.ok) throw call.error
    c.set('requestContext', call.requestContext)
    c.set('sentRequestContext', values)
    const length = mastra ? undefined : (headers.get('content-length') ?? undefined)
    if (!mastra) await checkBodyHeaders(c, maxInputBytes, { required: true, length, type: headers.get('content-type') ?? undefined })
    const mode = mastra ? { sse: false, view: 'display' as const, dialect: uiMessageStreamDialectOf(undefined) } : responseModeOf(c, options.keepAliveMs, headers)
    // SPEC §9: a call without a key pays one header read.
    const key = idempotency === false ? undefined : (headers.get(headerNames.idempotencyKey) ?? undefined)
    const shared = { call, runs: () => hostFor(c), defer: deferOf(c), mode, headers }
    if (key !== undefined) {
      if (!keyedCall) throw new ToolrouteError('EXECUTION_FAILED', noKeys)
      const principal = await principalOf(c, options, call.requestContext, caller)
      return keyedCall(c, { ...shared, key, store: keysFor(c), maxBytes: maxInputBytes, principal, ...(mastra ? { body: new TextEncoder().encode(JSON.stringify(mastra.data)) } : {}) })
    }
    // A chunked body read by an SSE caller streams its deltas live; any other is validated before the response.
    return callTool(c, {
      ...shared,
      principal: await deferredPrincipalOf(c, options, call.requestContext, caller),
      source: mastra ? { input: mastra.data } : await bodyInput(c.req.raw, length, maxInputBytes),
      storeRuns: options.storeRuns ?? 'stateful',
      liveInput: mode.sse && length === undefined,
      answer: mastra?.answer ?? answer,
    })
  }
  // One handler for the checks and the call: a route of one handler takes Hono's fast path (no compose).
  app.post('/tools/:toolId', (c) => callRoute(c, c.req.param('toolId') ?? ''))

  // Run routes: the caller's principal comes from the same request context and auth as a call.
  const runCaller: MiddlewareHandler<ToolAppEnv> = async (c, next) => {
    responseModeOf(c) // a bad `?view=` is refused before an approve or a resume acts, not after
    const caller = await resolveRequestContext(c, options)
    c.set('principal', await principalOf(c, options, caller.requestContext, caller))
    await next()
  }
  app.get('/runs', runCaller, async (c) => c.json(await listRuns(c, hostFor(c), c.get('principal'))))
  app.get('/runs/:runId', runCaller, async (c) => {
    // A page of the log, never all of it (SPEC §12); a cursor or limit that is not a number reads as absent.
    const [before, limit] = [c.req.query('before'), c.req.query('limit')].map((value) => (value && /^\d{1,15}$/.test(value) ? Number(value) : undefined))
    const { run, events } = await hostFor(c).get(c.req.param('runId'), { principal: c.get('principal'), events: { before, limit } })
    return c.json(await runView(run, events, await loadTool(tools, run.toolId)))
  })
  app.get('/runs/:runId/events', runCaller, async (c) => {
    const cursor = c.req.header(headerNames.lastEventId) ?? c.req.query('after') ?? '0'
    const after = /^\d+$/.test(cursor) ? Number(cursor) : 0
    const host = hostFor(c)
    const { run } = await host.get(c.req.param('runId'), { principal: c.get('principal') })
    const events = await host.follow(run.runId, { principal: c.get('principal'), after, signal: c.req.raw.signal })
    const mode = responseModeOf(c, options.keepAliveMs)
    return segmentResponse(c, { run, events, settled: Promise.resolve(run), abort() {} }, await loadTool(tools, run.toolId), { ...mode, sse: true })
  })
  const runAction = guardRunAction(options)
  const stepResponse = async (c: Context, segment: RunSegment) => segmentResponse(c, segment, await loadTool(tools, segment.run.toolId), responseModeOf(c, options.keepAliveMs))
  // Bodies are checked after our own read, so a bad one gets 415, 413 or INVALID_JSON first; empty is `{}`.
  // Each is the body of its own action, which the host's method of that name takes (hence the cast).
  for (const action of ['approve', 'decline', 'resume'] as const) {
    app.post(`/runs/:runId/${action}`, runAction, runCaller, async (c) =>
      stepResponse(c, await hostFor(c)[action](c.req.param('runId'), { principal: c.get('principal'), traceparent: c.req.header(headerNames.traceparent), ...checkRunActionBody(action, await readJsonBody(c, maxInputBytes)) } as never)),
    )
  }
  app.post('/runs/:runId/cancel', runAction, runCaller, async (c) => {
    await readJsonBody(c, maxInputBytes) // ignored, but held to the rules of a body: JSON or none
    const run = await hostFor(c).cancel(c.req.param('runId'), { principal: c.get('principal') })
    return c.json({ runId: run.runId, toolCallId: run.toolCallId, status: run.status } satisfies CancelResult, 200, { [headerNames.runId]: run.runId, [headerNames.toolCallId]: run.toolCallId })
  })

  // Features of the composer too: an app that turns them off bundles neither (`openapi: false`, `mastra: false`).
  const openApiOf = options.openapi === false ? undefined : features.openApi
  if (openApiOf) {
    const openApi = once(async () => openApiOf(await descriptors(), { basePath, server: options.server }))
    app.get('/openapi.json', async (c) => c.json(await openApi()))
  }
  mountPlayground(app, playground)
  if (options.mastra !== false) features.mastra?.(app, { descriptors: byId, maxInputBytes, call: callRoute })
  // A feature of the composer: this file imports no MCP code, so a Worker without /mcp bundles no MCP SDK.
  if (options.mcp !== false && features.mcp) {
    const mcp = features.mcp({ tools, options, runs: hostFor, tracer })
    app.on(['GET', 'POST', 'DELETE', 'PUT', 'PATCH'], '/mcp', (c) => mcp(c))
  }
  return app
}
