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
  /** Where lifecycle events go; absent for a direct `tool.execute()`, which builds none. */
  emit?: EmitEvent
  /** Where a transient `writer.custom` chunk goes (live readers only, never the log); absent, it is dropped. */
  emitTransient?(event: ToolEvent): void
  /** A caller's own writer (a direct call that passed one): `context.writer` forwards to it. */
  writer?: Pick<ToolStream, 'write' | 'custom'>
  observe: ToolObserve
  /** Absent when nothing can abort the call; may be a getter that makes it (`CallAbort`), so read it only to hand on. */
  signal?: AbortSignal
  /** Races `execute` against an abort without reading `signal` (`CallAbort`); absent, `signal` is listened to. */
  raceAbort?: <T>(work: T | Promise<T>) => Promise<T>
  messages: unknown[]
  /** Runs `fn` as the child span `name` of the call's span, active inside it (SPEC §17): given by the mounted `tracing/`. */
  trace?: <T>(name: string, fn: () => Promise<T>) => Promise<T>
  /** Spread into `context.agent`; `null`: no agent (`context.agent` undefined, as in Mastra); absent: `agentId: ''`. */
  agent?: Partial<AgentToolContext<unknown, unknown>> | null
  mcp?: McpToolContext
  workflow?: WorkflowToolContext<unknown, unknown>
  /** A caller's own suspend callback (direct calls, Mastra agents), run after validation. */
  onSuspend?: (payload: unknown, suspendOptions?: Record<string, unknown>) => unknown
}
