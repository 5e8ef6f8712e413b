import { context, createContextKey, defaultTextMapGetter, ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags, type Context, type Span, type Tracer } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import type { CallTracer } from '../runs/call-tracer.ts'

const propagator = new W3CTraceContextPropagator()
/** Marks the contexts below a call's span as that call's (the value: its span). */
const callKey = createContextKey('toolroute call')

export const failed = (span: Span, type: string) => (span.setStatus({ code: SpanStatusCode.ERROR }), span.setAttribute('error.type', type))

/** What a failed check answers (`{ ok: false }`, its code on it or its error): the validation span's `error.type`. */
const failureOf = (result: unknown): string | undefined => {
  const checked = result as { ok?: unknown; code?: string; error?: { code?: string } } | undefined
  return checked?.ok === false ? (checked.code ?? checked.error?.code ?? 'Error') : undefined
}

/**
 * Runs `fn` as the child span `name` of the span active inside this call (`call`, below the call's span), else of the call's
 * span itself: the active span elsewhere (a background attempt started inside another call's request) is none of its.
 * Active inside it; a throw (by the error's name) or a failed check (by its code) marks it failed.
 */
const stepOf =
  (tracer: Tracer, call: Context) =>
  <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const active = context.active()
    return tracer.startActiveSpan(name, {}, active.getValue(callKey) === call.getValue(callKey) ? active : call, async (span) => {
      try {
        const result = await fn()
        const failure = failureOf(result)
        if (failure) failed(span, failure)
        return result
      } catch (error) {
        failed(span, error instanceof Error ? error.name : 'Error')
        throw error
      } finally {
        span.end()
      }
    })
  }

/**
 * The span `execute_tool <toolId>` (GenAI semantic conventions) of a call, its parent the W3C `traceparent` it was sent;
 * or of a run's later step (`toolroute.run.step`: approve, resume, attempt) linked to the run's first span, under the
 * `traceparent` its request sent, else under the first span. Attributes are ids and outcomes only: never input, output, request context or tokens.
 */
export function startCallSpan(tracer: Tracer, toolId: string, from: Parameters<CallTracer>[1]): NonNullable<ReturnType<CallTracer>> & { span: Span; within<T>(fn: () => T): T } {
  const { traceId, spanId } = from.first ?? {}
  const first = traceId && spanId ? { traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true } : undefined
  // A step's parent is the traceparent its request sent (the approver's trace), else the run's first span.
  const sent = propagator.extract(ROOT_CONTEXT, { traceparent: from.traceparent }, defaultTextMapGetter)
  const parent = first && !trace.getSpanContext(sent) ? trace.setSpanContext(ROOT_CONTEXT, first) : sent
  const attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': toolId, ...(from.step ? { 'toolroute.run.step': from.step } : {}) }
  const span = tracer.startSpan(`execute_tool ${toolId}`, { attributes, ...(first ? { links: [{ context: first }] } : {}) }, parent)
  const call = trace.setSpan(parent, span).setValue(callKey, span)
  let ended = false
  return {
    span,
    ids: { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId },
    trace: stepOf(tracer, call),
    within: (fn) => context.with(call, fn),
    end(ids, error) {
      if (ended) return
      ended = true
      if (ids?.toolCallId) span.setAttribute('gen_ai.tool.call.id', ids.toolCallId)
      if (ids?.runId) span.setAttribute('toolroute.run.id', ids.runId)
      if (error) failed(span, error)
      span.end()
    },
  }
}
