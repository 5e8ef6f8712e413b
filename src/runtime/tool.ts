import { compileSchema } from '../schema/compile-schema.ts'
import type { SchemaLike } from '../schema/standard-schema.ts'
import type { ValidationError } from '../schema/format-validation-errors.ts'
import { executeDirect } from './execute-direct.ts'
import { assertToolOptions } from '../tool/assert-tool-options.ts'
import {
  toolMarker,
  type CompiledToolSchemas,
  type ContextValues,
  type SchemaInput,
  type SchemaOutput,
  type Tool as ToolShape,
  type ToolOptions,
} from '../tool/tool-types.ts'

/** Output type a tool's `execute` must return: the output schema's input, or anything. */
export type ExecuteResult<TOut> = [TOut] extends [undefined] ? unknown : SchemaInput<TOut> | ValidationError | void

/** The tool `new Tool(options)` and `createTool(options)` make, its types inferred from the options' schemas. */
export type ToolOf<TId extends string, TIn, TOut, TSuspend, TResume, TContext, TResult> = ToolShape<
  TId,
  SchemaInput<TIn>,
  SchemaOutput<TOut, Exclude<Awaited<TResult>, ValidationError | void>>,
  SchemaInput<TSuspend>,
  SchemaInput<TResume>,
  ContextValues<TContext>
>

/** `Tool` as a value: `new Tool(options)` infers the tool's types as `createTool` does. */
export interface ToolConstructor {
  new <
    TId extends string,
    TIn extends SchemaLike | undefined = undefined,
    TOut extends SchemaLike | undefined = undefined,
    TSuspend extends SchemaLike | undefined = undefined,
    TResume extends SchemaLike | undefined = undefined,
    TContext extends SchemaLike | undefined = undefined,
    TResult extends ExecuteResult<TOut> = ExecuteResult<TOut>,
  >(
    options: ToolOptions<TId, TIn, TOut, TSuspend, TResume, TContext, TResult>,
  ): ToolOf<TId, TIn, TOut, TSuspend, TResume, TContext, TResult>
  readonly prototype: ToolShape
}

type AnyOptions = ToolOptions<string, any, any, any, any, any, any>

/** The options a tool also carries under their own names, in this order. */
const ownOptions = [
  'inputSchema', 'outputSchema', 'suspendSchema', 'resumeSchema', 'requestContextSchema', 'requireApproval', 'strict',
  'outputValidation', 'providerOptions', 'inputExamples', 'toModelOutput', 'transform', 'mcp', 'background',
  'onInputStart', 'onInputDelta', 'onInputAvailable', 'onOutput',
] as const

/**
 * The tool object, as Mastra's `Tool` class: an ordinary, writable object with the fields of `Tool`
 * (tool-types.ts). The runtime reads `options` and `schemas`, so reassigning `tool.execute` changes
 * direct calls only.
 */
class ToolObject {
  constructor(options: AnyOptions) {
    assertToolOptions(options)
    const schemas: CompiledToolSchemas = {}
    for (const slot of ['input', 'output', 'suspend', 'resume', 'requestContext'] as const) {
      const schema = options[`${slot}Schema`]
      if (schema) schemas[slot] = compileSchema(schema, `${slot}Schema of tool "${options.id}"`)
    }
    const tool = this as unknown as Record<PropertyKey, unknown>
    tool[toolMarker] = true
    tool.id = options.id
    tool.title = options.title
    tool.description = options.description
    tool.options = options
    tool.schemas = schemas
    for (const key of ownOptions) tool[key] = options[key]
    tool.requireApproval ??= false
    tool.execute = options.execute ? (input: unknown, context?: object) => executeDirect(this as never, input, context) : undefined
  }
}

/**
 * Mastra's `Tool` class: `new Tool(options)` is `createTool(options)` (see its example), and every
 * tool is an instance (`tool instanceof Tool`).
 */
export const Tool = ToolObject as unknown as ToolConstructor

/** A tool made by `createTool` or `new Tool` (the same as `AnyTool`, with its types when given). */
export type Tool<
  TId extends string = string,
  TInput = any,
  TOutput = any,
  TSuspend = any,
  TResume = any,
  TRequestContext extends Record<string, any> = any,
> = ToolShape<TId, TInput, TOutput, TSuspend, TResume, TRequestContext>
