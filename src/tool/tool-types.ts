// The public types of a tool: `createTool`'s options and the `Tool` it returns.
import type { ToolCallContextInput, ToolCallOptions, ToolExecutionContext } from './tool-execution-context.ts'
import type { ToolModelOutput } from '../protocol/model-output.ts'
import type { ToolDescriptorBackground, ToolMcpOptions } from '../protocol/tool-descriptor.ts'
import type { InferInput, InferOutput, SchemaLike } from '../schema/standard-schema.ts'
import type { CompiledSchema } from '../schema/compile-schema.ts'
import type { ValidationError } from '../schema/format-validation-errors.ts'

type MaybePromise<T> = T | PromiseLike<T>

/** Output type of a schema, or `Fallback` when no schema is set. */
export type SchemaOutput<S, Fallback = unknown> = [S] extends [undefined] ? Fallback : InferOutput<S>
/** Input type of a schema, or `Fallback` when no schema is set. */
export type SchemaInput<S, Fallback = unknown> = [S] extends [undefined] ? Fallback : InferInput<S>

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
export interface ToolBackgroundOptions extends ToolDescriptorBackground {
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
   * Runs the tool. An `async function*` streams preliminary outputs, as in the AI SDK: each `yield`
   * is a preliminary `tool-output-available`, the last one the final output (a `return` is ignored).
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

/** The request context's values as a `requestContextSchema` parses them. */
export type ContextValues<TContext> = [TContext] extends [undefined]
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

export const toolMarker = Symbol.for('toolroute.tool')

/**
 * A tool made by `createTool` or `new Tool`: every option under its own name, its compiled schemas,
 * and a direct `execute`. An ordinary object: `vi.spyOn(tool, 'execute')` and `tool.execute = wrapper` work.
 */
export interface Tool<
  TId extends string = string,
  TInput = any,
  TOutput = any,
  TSuspend = any,
  TResume = any,
  TRequestContext extends Record<string, any> = any,
> extends Readonly<
    Pick<ToolOptions<TId, any, any, any, any, any, any>, 'title' | 'description' | 'strict' | 'outputValidation' | 'providerOptions' | 'inputExamples' | 'mcp' | 'background'>
  > {
  readonly [toolMarker]: true
  readonly id: TId
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
  // Method syntax: a tool of any output stays assignable to `AnyTool`.
  toModelOutput?(output: TOutput): ToolModelOutput | string | PromiseLike<ToolModelOutput | string>
  readonly transform?: ToolPayloadTransform
  onInputStart?(options: ToolCallOptions): MaybePromise<void>
  onInputDelta?(options: ToolCallOptions & { inputTextDelta: string }): MaybePromise<void>
  onInputAvailable?(options: ToolCallOptions & { input: TInput }): MaybePromise<void>
  onOutput?(options: Omit<ToolCallOptions, 'messages'> & { output: TOutput; toolName: string }): MaybePromise<void>
  /** Phantom types for inference (`InferToolInput<typeof tool>`); never set at run time. */
  readonly '~types'?: { input: TInput; output: TOutput; suspend: TSuspend; resume: TResume; requestContext: TRequestContext }
  /**
   * Calls the tool without a server, as in Mastra; a validation failure is returned as
   * `{ error: true, message, validationErrors }`. `undefined` for a tool defined without `execute`.
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
