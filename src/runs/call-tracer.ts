import type { ToolCallScope } from '../runtime/tool-call-scope.ts'

/**
 * The mounted `tracing/` (SPEC §17): the span of a call under `traceparent`, or of a run's later `step` under and linked to `first`
 * (the run's first span); none when nothing is exported. `ids` is its trace, `trace` makes its children, `end` names its run and failure.
 */
export type CallTracer = (toolId: string, from: { traceparent?: string; step?: string; first?: { traceId?: string; spanId?: string } }) => { ids: { traceId: string; spanId: string }; trace: NonNullable<ToolCallScope['trace']>; end(ids?: { runId: string; toolCallId: string }, error?: string): void } | undefined
/** A Durable Object's tracer on Workers (`workerTracing.inObject(tracing)`): from the object's env, each span flushed with its `waitUntil`. */
export type ObjectTracer = (env: unknown, waitUntil?: (work: Promise<unknown>) => void) => CallTracer
