import type { RequestContext } from './request-context.ts'

// The execution context `execute` receives, and what a direct call may pass as one.

/** `observe` on the execution context: spans and structured logs, always present. */
export interface ToolObserve {
  span<T>(name: string, fn: () => Promise<T> | T, attributes?: Record<string, unknown>): Promise<T>
  log(level: 'debug' | 'info' | 'warn' | 'error' | 'fatal', message: string, data?: Record<string, unknown>): void
}

/** What `suspend` may take beside its payload, passed on to the caller's own `suspend` (Mastra's `SuspendOptions`). */
export interface SuspendOptions {
  resumeLabel?: string | string[]
  [key: string]: unknown
}

/** A chunk for `writer.custom`: an AI SDK data part (`data-<name>`), sent as written. */
export interface ToolCustomChunk {
  type: `data-${string}`
  data: unknown
  /** A part with the same id replaces the earlier one in an AI SDK UI message. */
  id?: string
  /** Sent to live readers only: not stored in the run's log, not replayed. */
  transient?: boolean
}

/**
 * `writer` on the execution context (Mastra's `ToolStream`): a tool shows its work while it runs.
 * A `WritableStream` too (each chunk piped in is a `write`). On a direct call without one, writes go nowhere.
 */
export interface ToolStream extends WritableStream<unknown> {
  /** Emits `data-tool-output` with `{ toolCallId, output: value }`. */
  write(value: unknown): Promise<void>
  /** Emits the chunk as written; a `type` not starting with `data-` throws a `TypeError`. */
  custom(chunk: ToolCustomChunk): Promise<void>
}

/** Agent-side context, present when a tool is called over HTTP, MCP or by an agent. */
export interface AgentToolContext<TSuspend, TResume> {
  /** The calling agent's id; `''` when unknown (over HTTP and MCP). */
  agentId: string
  toolCallId: string
  messages: unknown[]
  suspend: (suspendPayload: TSuspend, suspendOptions?: SuspendOptions) => Promise<void>
  resumeData?: TResume
  suspendPayload?: TSuspend
  threadId?: string
  resourceId?: string
  [key: string]: unknown
}

/** Workflow-side context, present when a tool runs as a workflow step. */
export interface WorkflowToolContext<TSuspend, TResume> {
  runId: string
  workflowId: string
  state: unknown
  setState: (state: unknown) => void
  suspend: (suspendPayload: TSuspend, suspendOptions?: SuspendOptions) => Promise<void>
  resumeData?: TResume
  suspendPayload?: TSuspend
}

/** An MCP elicitation request (`elicitation/create` params). */
export interface ElicitRequestParams {
  message: string
  requestedSchema: Record<string, unknown>
  [key: string]: unknown
}

/** The client's answer to an elicitation. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel'
  content?: Record<string, unknown>
  [key: string]: unknown
}

/** How a question is asked, beside its `elicitation/create` params. */
export interface ElicitOptions {
  /** The question's key in a 2026-07-28 `input_required` result's `inputRequests`: default `answer` (2025 has none). */
  key?: string
}

/** MCP-side context, present when a tool is called over MCP. */
export interface McpToolContext {
  elicitation: { sendRequest: (request: ElicitRequestParams, options?: ElicitOptions) => Promise<ElicitResult> }
  extra: Record<string, unknown>
}

/** The second argument of `execute`. */
export interface ToolExecutionContext<TSuspend = unknown, TResume = unknown, TRequestContext extends Record<string, any> = Record<string, unknown>> {
  requestContext: RequestContext<TRequestContext>
  /** Aborts when the caller disconnects, the run is cancelled or it times out. */
  abortSignal: AbortSignal
  agent?: AgentToolContext<TSuspend, TResume>
  workflow?: WorkflowToolContext<TSuspend, TResume>
  mcp?: McpToolContext
  observe: ToolObserve
  /** Streams values and custom data parts to the caller while the tool runs (SPEC §8). */
  writer: ToolStream
  /** Pauses the run with a payload validated against `suspendSchema`; `execute`'s return value is then ignored. */
  suspend: (suspendPayload: TSuspend, suspendOptions?: SuspendOptions) => Promise<void>
  /** The answer to the last suspension, validated against `resumeSchema`. */
  resumeData?: TResume
  /** The payload the tool last suspended with. */
  suspendPayload?: TSuspend
  /** The run this call belongs to, when it runs under toolroute's runtime. */
  runId?: string
}

/** What a direct call may pass as context: everything optional, a plain object for the request context. */
export type ToolCallContextInput<TSuspend = unknown, TResume = unknown, TRequestContext extends Record<string, any> = Record<string, unknown>> = Partial<
  Omit<ToolExecutionContext<TSuspend, TResume, TRequestContext>, 'requestContext' | 'agent' | 'observe' | 'writer'>
> & {
  /** Where `writer` sends what the tool writes (a Mastra agent's `ToolStream`); absent, writes go nowhere. */
  writer?: Pick<ToolStream, 'write' | 'custom'>
  requestContext?: RequestContext<TRequestContext> | Partial<TRequestContext>
  agent?: Partial<AgentToolContext<TSuspend, TResume>>
  observe?: ToolObserve
  /** Flat agent fields, as a Mastra agent passes them: with `messages`, they move under `agent`. */
  toolCallId?: string
  messages?: unknown[]
  agentId?: string
  threadId?: string
  resourceId?: string
  /** Flat workflow fields: they move under `workflow`. */
  workflowId?: string
  state?: unknown
  setState?: (state: unknown) => void
}

/** Options the AI SDK passes to input hooks. */
export interface ToolCallOptions {
  toolCallId: string
  messages: unknown[]
  abortSignal?: AbortSignal
}
