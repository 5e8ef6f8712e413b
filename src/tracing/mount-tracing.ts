import { context, ROOT_CONTEXT, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import type { TracerProvider } from '@opentelemetry/sdk-trace'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import type { ToolAppEnv, ToolAppOptions } from '../http/tool-app-options.ts'
import { headerNames } from '../protocol/header-names.ts'
import { AlsContextManager } from './als-context-manager.ts'
import { tracerProviderOf } from './tracer-provider-of.ts'

const propagator = new W3CTraceContextPropagator()
const headerGetter = { get: (headers: Headers, key: string) => headers.get(key) ?? undefined, keys: (headers: Headers) => [...headers.keys()] }

/** Runs `fn` as the child span `name` of the active span, active inside it; a throw marks it failed (by the error's name only). */
const stepOf =
  (tracer: Tracer) =>
  <T>(name: string, fn: () => Promise<T>): Promise<T> =>
    tracer.startActiveSpan(name, async (span) => {
      try {
        return await fn()
      } catch (error) {
        failed(span, error instanceof Error ? error.name : 'Error')
        throw error
      } finally {
        span.end()
      }
    })

const failed = (span: Span, type: string) => (span.setStatus({ code: SpanStatusCode.ERROR }), span.setAttribute('error.type', type))

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
 * request's W3C `traceparent`, active while the call runs so that `execute`, each `observe.span` and a
 * tool's own `@opentelemetry/api` spans are its children; exported over OTLP/HTTP after the answer
 * (`waitUntil` on Workers). Attributes are ids, sizes and statuses: never input, output, request context or tokens.
 */
export function mountTracing(app: Hono<ToolAppEnv>, { tracing }: { tracing: NonNullable<ToolAppOptions['tracing']>; basePath: string }): void {
  // The active context lives in an AsyncLocalStorage; a context manager or provider already registered (the app's own) is kept.
  context.setGlobalContextManager(new AlsContextManager())
  let provider: TracerProvider | undefined
  const traced: MiddlewareHandler<ToolAppEnv> = async (c, next) => {
    if (c.req.method !== 'POST') return next()
    if (!provider) {
      provider = tracerProviderOf(tracing, c.env as Record<string, unknown> | undefined)
      if (!provider) return next()
      trace.setGlobalTracerProvider(provider)
    }
    const tracer = provider.getTracer('toolroute')
    const toolId = c.req.param('toolId') ?? ''
    const parent = propagator.extract(ROOT_CONTEXT, c.req.raw.headers, headerGetter)
    const attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': toolId }
    const span = tracer.startSpan(`execute_tool ${toolId}`, { attributes }, parent)
    const { traceId, spanId, traceFlags } = span.spanContext()
    c.set('callTrace', { traceparent: `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`, step: stepOf(tracer) })
    let ended = false
    const end = () => {
      if (ended) return
      ended = true
      span.end()
      flushOnWorkers(c, provider!)
    }
    try {
      await context.with(trace.setSpan(parent, span), next)
    } catch (error) {
      failed(span, error instanceof Error ? error.name : 'Error')
      end()
      throw error
    }
    const response = c.res
    const callId = response.headers.get(headerNames.toolCallId)
    const runId = response.headers.get(headerNames.runId)
    if (callId) span.setAttribute('gen_ai.tool.call.id', callId)
    if (runId) span.setAttribute('toolroute.run.id', runId)
    span.setAttribute('http.response.status_code', response.status)
    if (response.status >= 400) failed(span, String(response.status))
    if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) c.res = new Response(endingWith(response.body, end), response)
    else end()
  }
  app.use('/tools/:toolId', traced)
  app.use('/api/tools/:toolId/execute', traced)
}

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
