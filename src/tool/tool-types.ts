/**
 * The public types of a tool: `createTool`'s options, the execution context `execute` receives, the
 * `Tool` it returns. One file over ~300 lines on purpose: these are one API read top to bottom (as
 * Mastra's `types.ts` is), each type documented where a user's editor shows it, and splitting them
 * would scatter the generics that tie the options to the context.
 */
import type { RequestContext } from './request-context.ts'
import type { ToolModelOutput } from '../protocol/model-output.ts'
import type { ToolMcpOptions } from '../protocol/tool-descriptor.ts'

import type { InferInput, InferOutput, SchemaLike } from '../schema/standard-schema.ts'
import type { CompiledSchema } from '../schema/compile-schema.ts'
import type { ValidationError } from '../schema/format-validation-errors.ts'

type MaybePromise<T> = T | PromiseLike<T>

/** Output type of a schema, or `Fallback` when no schema is set. */
export type SchemaOutput<S, Fallback = unknown> = [S] extends [undefined] ? Fallback : InferOutput<S>
/** Input type of a schema, or `Fallback` when no schema is set. */
export type SchemaInput<S, Fallback = unknown> = [S] extends [undefined] ? Fallback : InferInput<S>

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
 * `writer` on the execution context (Mastra's `ToolStream`), always present: a tool shows its
 * work while it runs. A `WritableStream` too, so a stream can be piped into it (each chunk is a
 * `write`). On a direct call without a writer of the caller's, writing goes nowhere.
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
  /**
   * The question's key in a 2026-07-28 `input_required` result's `inputRequests` (and so in the
   * client's `inputResponses`): default `answer`. A 2025 session asks by request and has no keys.
   */
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

export type TransformPhase = 'input' | 'inputDelta' | 'output' | 'error' | 'approval' | 'suspend' | 'resume'

/** What a payload transform receives (Mastra's `ToolPayloadTransformContext`). */
export interface ToolPayloadTransformContext<TInput = unknown, TOutput = unknown> {
  target: 'display' | 'transcript'
  phase: 'input-delta' | 'input-available' | 'output-available' | 'error' | 'approval' | 'suspend' | 'resume'
  toolName: string
  toolCallId: string
  input?: TInput
  inputTextDelta?: string
  output?: TOutput
  error?: unknown
  suspendPayload?: unknown
  resumeData?: unknown
  context?: Record<string, unknown>
}

export type ToolPayloadTransformFunction<TInput = unknown, TOutput = unknown> = (
  context: ToolPayloadTransformContext<TInput, TOutput>,
) => unknown

/** Per-phase transforms for one audience. */
export type ToolPayloadTransformTarget<TInput = unknown, TOutput = unknown> = Partial<
  Record<TransformPhase, ToolPayloadTransformFunction<TInput, TOutput>>
>

/** `transform`: what each audience may see of a payload (the runtime always gets raw values). */
export interface ToolPayloadTransform<TInput = unknown, TOutput = unknown> {
  display?: ToolPayloadTransformTarget<TInput, TOutput>
  transcript?: ToolPayloadTransformTarget<TInput, TOutput>
}

/** `background`: run the tool inside its run's durable object, not in the request. */
export interface ToolBackgroundOptions {
  enabled?: boolean
  /** Abort the attempt after this long (default 10 minutes). */
  timeoutMs?: number
  /** Further attempts after a failed one (default 0). */
  maxRetries?: number
  defaultDisposition?: 'foreground' | 'deferred'
  waitTimeoutMs?: number
  onComplete?: (task: BackgroundTaskInfo) => void | Promise<void>
  onFailed?: (task: BackgroundTaskInfo) => void | Promise<void>
}

/** What `background.onComplete` / `onFailed` receive. */
export interface BackgroundTaskInfo {
  runId: string
  toolId: string
  toolCallId: string
  status: 'completed' | 'failed'
  attempts: number
  output?: unknown
  error?: { code: string; message: string }
}

/**
 * Every option of Mastra's `createTool`, with types inferred from the schemas.
 * `TResult` is what `execute` returns; with an `outputSchema` it must match the schema's input.
 */
export interface ToolOptions<
  TId extends string,
  TIn extends SchemaLike | undefined,
  TOut extends SchemaLike | undefined,
  TSuspend extends SchemaLike | undefined,
  TResume extends SchemaLike | undefined,
  TContext extends SchemaLike | undefined,
  TResult,
> {
  id: TId
  /** Display name for UIs and MCP clients (MCP `title`); never sent to the model. */
  title?: string
  description: string
  inputSchema?: TIn
  outputSchema?: TOut
  suspendSchema?: TSuspend
  resumeSchema?: TResume
  requestContextSchema?: TContext
  /** Ask providers that support it to generate arguments that match the schema exactly. */
  strict?: boolean
  /** `'error'` (default) fails a call whose output breaks `outputSchema`; `'warn'` logs and returns it (for tools with side effects). */
  outputValidation?: 'error' | 'warn'
  toModelOutput?: (output: SchemaOutput<TOut, TResult>) => ToolModelOutput | string | PromiseLike<ToolModelOutput | string>
  transform?: ToolPayloadTransform<SchemaOutput<TIn>, SchemaOutput<TOut, TResult>>
  requireApproval?:
    | boolean
    | ((input: SchemaOutput<TIn>, options: { requestContext: SchemaOutput<TContext, Record<string, unknown>> }) => boolean | Promise<boolean>)
  mcp?: ToolMcpOptions
  providerOptions?: Record<string, Record<string, unknown>>
  inputExamples?: Array<{ input: Record<string, unknown> }>
  background?: ToolBackgroundOptions
  /**
   * Runs the tool. An async generator (`async function*`) streams preliminary outputs, as in the
   * AI SDK: each `yield` is sent as a preliminary `tool-output-available`, and the last value
   * yielded is the final output (a `return` value is ignored, as the AI SDK ignores it).
   */
  execute?: (
    input: SchemaOutput<TIn>,
    context: ToolExecutionContext<SchemaInput<TSuspend>, SchemaOutput<TResume>, ContextValues<TContext>>,
  ) => Promise<TResult> | AsyncIterable<TResult>
  onInputStart?: (options: ToolCallOptions) => MaybePromise<void>
  onInputDelta?: (options: ToolCallOptions & { inputTextDelta: string }) => MaybePromise<void>
  onInputAvailable?: (options: ToolCallOptions & { input: SchemaOutput<TIn> }) => MaybePromise<void>
  onOutput?: (options: Omit<ToolCallOptions, 'messages'> & { output: SchemaOutput<TOut, TResult>; toolName: string }) => MaybePromise<void>
}

type ContextValues<TContext> = [TContext] extends [undefined]
  ? Record<string, unknown>
  : InferOutput<TContext> extends Record<string, any>
    ? InferOutput<TContext>
    : Record<string, unknown>

/** The schemas of a tool, compiled once at definition. */
export interface CompiledToolSchemas {
  input?: CompiledSchema
  output?: CompiledSchema
  suspend?: CompiledSchema
  resume?: CompiledSchema
  requestContext?: CompiledSchema
}

const toolMarker = Symbol.for('toolroute.tool')
export { toolMarker }

/**
 * A tool made by `createTool` or `new Tool`: every option under its own name, its compiled
 * schemas, and a direct `execute`. An ordinary object: `vi.spyOn(tool, 'execute')` and
 * `tool.execute = wrapper` work (the wrapper is what direct calls run).
 */
export interface Tool<
  TId extends string = string,
  TInput = any,
  TOutput = any,
  TSuspend = any,
  TResume = any,
  TRequestContext extends Record<string, any> = any,
> {
  readonly [toolMarker]: true
  readonly id: TId
  readonly title?: string
  readonly description: string
  /** The options as written, for the runtime (hooks, transforms, approval…). */
  readonly options: ToolOptions<TId, any, any, any, any, any, any>
  readonly schemas: CompiledToolSchemas
  /** The very schema objects passed as options. */
  readonly inputSchema?: SchemaLike
  readonly outputSchema?: SchemaLike
  readonly suspendSchema?: SchemaLike
  readonly resumeSchema?: SchemaLike
  readonly requestContextSchema?: SchemaLike
  /** `false` unless the option says otherwise. */
  readonly requireApproval: boolean | ((input: any, options: { requestContext: any }) => boolean | Promise<boolean>)
  readonly strict?: boolean
  readonly outputValidation?: 'error' | 'warn'
  readonly providerOptions?: Record<string, Record<string, unknown>>
  readonly inputExamples?: Array<{ input: Record<string, unknown> }>
  // Method syntax: a tool of any output stays assignable to `AnyTool`.
  toModelOutput?(output: TOutput): ToolModelOutput | string | PromiseLike<ToolModelOutput | string>
  readonly transform?: ToolPayloadTransform
  readonly mcp?: ToolMcpOptions
  readonly background?: ToolBackgroundOptions
  onInputStart?(options: ToolCallOptions): MaybePromise<void>
  onInputDelta?(options: ToolCallOptions & { inputTextDelta: string }): MaybePromise<void>
  onInputAvailable?(options: ToolCallOptions & { input: TInput }): MaybePromise<void>
  onOutput?(options: Omit<ToolCallOptions, 'messages'> & { output: TOutput; toolName: string }): MaybePromise<void>
  /** Phantom types for inference (`InferToolInput<typeof tool>`); never set at run time. */
  readonly '~types'?: { input: TInput; output: TOutput; suspend: TSuspend; resume: TResume; requestContext: TRequestContext }
  /**
   * Calls the tool without a server, as in Mastra: validates input, request context, suspend
   * payload and output; a validation failure is returned as `{ error: true, message, validationErrors }`.
   * `undefined` at run time for a tool defined without `execute` (typed as present, since almost
   * every tool has one).
   */
  execute(
    input: TInput,
    context?: ToolCallContextInput<TSuspend, TResume, TRequestContext>,
  ): Promise<TOutput | ValidationError | undefined>
}

/** Any tool, whatever its types. */
export type AnyTool = Tool<string, any, any, any, any, any>

/** The parsed input of a tool. */
export type InferToolInput<T> = T extends Tool<any, infer I, any, any, any, any> ? I : never
/** The output of a tool. */
export type InferToolOutput<T> = T extends Tool<any, any, infer O, any, any, any> ? O : never
