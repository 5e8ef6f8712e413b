import { context, trace } from '@opentelemetry/api'
import type { TracerProvider } from '@opentelemetry/sdk-trace'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import type { ToolAppEnv, ToolAppOptions } from '../http/tool-app-options.ts'
import { headerNames } from '../protocol/header-names.ts'
import { AlsContextManager } from './als-context-manager.ts'
import { tracerProviderOf } from './tracer-provider-of.ts'
import { failed, startCallSpan } from './start-call-span.ts'
import type { CallTracer, ObjectTracer } from '../runs/call-tracer.ts'

type Tracing = NonNullable<ToolAppOptions['tracing']>
/** One provider per `tracing` option, made from the first env that asks (a Worker's vars, a Durable Object's, or the process's): a Worker and its objects in one isolate share it. `null`: nothing configured. */
const providers = new WeakMap<Tracing, TracerProvider | null>()
function providerOf(tracing: Tracing, env: unknown): TracerProvider | null {
  let provider = providers.get(tracing)
  if (provider !== undefined) return provider
  providers.set(tracing, (provider = tracerProviderOf(tracing, env as Record<string, unknown> | undefined) ?? null))
  if (provider) trace.setGlobalTracerProvider(provider)
  return provider
}

/** `body` passed through, `done` told once when it ends or its reader cancels it (an SSE call's span ends with its stream). */
function endingWith(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  return new ReadableStream({
    async pull(controller) {
      const next = await reader.read().catch((error) => (done(), Promise.reject(error)))
      if (!next.done) return controller.enqueue(next.value)
      done()
      controller.close()
    },
    cancel: (reason) => (done(), reader.cancel(reason)),
  })
}

/**
 * SPEC §17: a span `execute_tool <toolId>` per call (GenAI semantic conventions), its parent the
 * request's W3C `traceparent`, active while the call runs so that validation, `execute`, each `observe.span` and a
 * tool's own `@opentelemetry/api` spans are its children; exported over OTLP/HTTP after the answer
 * (`waitUntil` on Workers). The tracer it returns does the same for MCP's `tools/call` and a run's later steps.
 */
export function mountTracing(app: Hono<ToolAppEnv>, { tracing }: { tracing: Tracing; basePath: string }): CallTracer {
  // The active context lives in an AsyncLocalStorage; a context manager or provider already registered (the app's own) is kept.
  context.setGlobalContextManager(new AlsContextManager())
  const tracer = objectTracer(tracing)(undefined)
  const traced: MiddlewareHandler<ToolAppEnv> = async (c, next) => {
    const provider = c.req.method === 'POST' ? providerOf(tracing, c.env) : null
    if (!provider) return next()
    const call = startCallSpan(provider.getTracer('toolroute'), c.req.param('toolId') ?? '', { traceparent: c.req.header(headerNames.traceparent) })
    c.set('callTrace', call)
    let status = 0
    const end = () => (call.end({ runId: c.res.headers.get(headerNames.runId) ?? '', toolCallId: c.res.headers.get(headerNames.toolCallId) ?? '' }, status >= 400 ? String(status) : undefined), flushOnWorkers(c, provider))
    try {
      await call.within(next)
    } catch (error) {
      failed(call.span, error instanceof Error ? error.name : 'Error')
      end()
      throw error
    }
    const response = c.res
    status = response.status
    call.span.setAttribute('http.response.status_code', status)
    if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) c.res = new Response(endingWith(response.body, end), response)
    else end()
  }
  app.use('/tools/:toolId', traced)
  app.use('/api/tools/:toolId/execute', traced)
  // MCP and the run routes trace inside (a tools/call, a step): here the provider is made from the env before the route runs
  // (the tracer they call reads no env of its own; a Worker's first request may be a tools/call), and a Worker's spans flushed.
  const flushed: MiddlewareHandler<ToolAppEnv> = async (c, next) => {
    const current = c.req.method === 'POST' ? providerOf(tracing, c.env) : undefined
    await next()
    if (current) flushOnWorkers(c, current)
  }
  for (const path of ['/mcp', '/runs/:runId/approve', '/runs/:runId/resume']) app.use(path, flushed)
  return tracer
}

/**
 * The tracer of a Durable Object on Workers (`workerTracing.inObject`: a run's object, an MCP session's): the provider made from the
 * object's env, each call's or step's spans flushed once it ends with the object's `waitUntil` (never delaying its answer).
 * Without them (`env` undefined, no `waitUntil`), the app's in-process tracer: spans go with the next batch.
 */
export const objectTracer =
  (tracing: Tracing): ObjectTracer =>
  (env, waitUntil) =>
  (toolId, from) => {
    const provider = providerOf(tracing, env)
    const call = provider ? startCallSpan(provider.getTracer('toolroute'), toolId, from) : undefined
    return call && waitUntil ? { ...call, end: (ids, error) => (call.end(ids, error), waitUntil(provider!.forceFlush().catch(() => {}))) } : call
  }

/** `mountTracing` for `createWorker`, with `inObject`, what its Durable Objects trace with. */
export const workerTracing = Object.assign((app: Hono<ToolAppEnv>, settings: { tracing: Tracing; basePath: string }) => mountTracing(app, settings), { inObject: objectTracer })

/**
 * On Workers, sends the request's spans after the answer, kept alive with `waitUntil` (an isolate may
 * sleep once it has answered). Elsewhere the process outlives the call: its spans go with the next batch.
 */
function flushOnWorkers(c: Context, provider: TracerProvider): void {
  // Hono's `executionCtx` throws without one (Node, Deno): asked once, since a throw costs a stack.
  if ((hasExecutionContext ??= executionContextOf(c) !== undefined)) executionContextOf(c)?.waitUntil(provider.forceFlush().catch(() => {}))
}

let hasExecutionContext: boolean | undefined

function executionContextOf(c: Context): { waitUntil(work: Promise<unknown>): void } | undefined {
  try {
    return c.executionCtx
  } catch {
    return undefined
  }
}
