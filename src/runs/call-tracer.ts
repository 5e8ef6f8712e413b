import type { RunIds } from '../protocol/call-result.ts'
import type { ToolCallScope } from '../runtime/tool-call-scope.ts'

/**
 * The mounted `tracing/` (SPEC §17), for a transport or the run engine: the span of a call (under `traceparent`), or of
 * a run's later `step` (under and linked to `first`, the run's first span); `undefined` when nothing is exported. The span's
 * `ids` are the call's trace, `trace` makes its children, `within` runs work with it active, `end` names the run and any failure.
 */
export type CallTracer = (toolId: string, from: { traceparent?: string; step?: string; first?: { traceId?: string; spanId?: string } }) =>
  | { ids: { traceId: string; spanId: string }; trace: NonNullable<ToolCallScope['trace']>; within<T>(fn: () => T): T; end(ids?: Partial<RunIds>, error?: string): void }
  | undefined
