import type { EmitEvent, ToolEvent } from '../protocol/tool-event.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { AgentToolContext, McpToolContext, ToolObserve, ToolStream, WorkflowToolContext } from '../tool/tool-execution-context.ts'
import type { RequestContext } from '../tool/request-context.ts'

/**
 * Everything the executor needs to know about one call, whoever drives it: a direct call,
 * an HTTP request, a Durable Object, or MCP. Built once per call.
 */
export interface ToolCallScope {
  tool: AnyTool
  runId: string
  toolCallId: string
  requestContext: RequestContext<any>
  /**
   * Where lifecycle events go. Absent for a direct `tool.execute()` call: no events are built
   * and no model output is computed, since nothing would read them.
   */
  emit?: EmitEvent
  /**
   * Where a `transient: true` chunk of `writer.custom` goes: to the call's live readers only,
   * never into the log that is stored and replayed. Absent, transient chunks are dropped.
   * Called as a method (`scope.emitTransient(event)`), so it may be one.
   */
  emitTransient?(event: ToolEvent): void
  /** A caller's own writer (a direct call that passed one): `context.writer` forwards to it. */
  writer?: Pick<ToolStream, 'write' | 'custom'>
  observe: ToolObserve
  /**
   * Absent when nothing can abort the call; `execute` then gets a signal that never aborts.
   * May be a getter that makes the signal on first read (`CallAbort`), so read it only to hand it on.
   */
  signal?: AbortSignal
  /**
   * Races `execute` against an abort without reading `signal` (a scope backed by `CallAbort`);
   * absent, the executor races `signal` by listening to it.
   */
  raceAbort?: <T>(work: T | Promise<T>) => Promise<T>
  messages: unknown[]
  /**
   * The caller's agent fields (`agentId`, `threadId`, `resourceId`…), spread into `context.agent`.
   * `null` when the call comes from no agent (a direct call that passed no agent fields), so
   * `context.agent` is `undefined`, as in Mastra; absent, the call has an agent with `agentId: ''`.
   */
  agent?: Partial<AgentToolContext<unknown, unknown>> | null
  mcp?: McpToolContext
  workflow?: WorkflowToolContext<unknown, unknown>
  /** A caller's own suspend callback (direct calls, Mastra agents), run after validation. */
  onSuspend?: (payload: unknown, suspendOptions?: Record<string, unknown>) => unknown
}
