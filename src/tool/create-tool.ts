import type { SchemaLike } from '../schema/standard-schema.ts'
import { compileSchema } from '../schema/compile-schema.ts'
import { executeDirect } from '../runtime/execute-direct.ts'
import type { ValidationError } from '../schema/format-validation-errors.ts'
import {
  toolMarker,
  type CompiledToolSchemas,
  type SchemaInput,
  type SchemaOutput,
  type Tool,
  type ToolOptions,
} from './tool-types.ts'
import { assertToolOptions } from './assert-tool-options.ts'

/** Output type a tool's `execute` must return: the output schema's input, or anything. */
type ExecuteResult<TOut> = [TOut] extends [undefined] ? unknown : SchemaInput<TOut> | ValidationError | void

type ContextOf<TContext> = [TContext] extends [undefined]
  ? Record<string, unknown>
  : SchemaOutput<TContext> extends Record<string, any>
    ? SchemaOutput<TContext>
    : Record<string, unknown>

/**
 * Defines a tool with the options of Mastra's `createTool`, types inferred from the schemas.
 * Schemas are compiled and their JSON Schema computed here, once, never per request.
 *
 * @example
 * export const weatherTool = createTool({
 *   id: 'weather-tool',
 *   description: 'Get the current weather for a location',
 *   inputSchema: z.object({ location: z.string() }),
 *   outputSchema: z.object({ location: z.string(), temperatureCelsius: z.number() }),
 *   execute: async ({ location }) => ({ location, temperatureCelsius: 21 }),
 * })
 */
export function createTool<
  TId extends string,
  TIn extends SchemaLike | undefined = undefined,
  TOut extends SchemaLike | undefined = undefined,
  TSuspend extends SchemaLike | undefined = undefined,
  TResume extends SchemaLike | undefined = undefined,
  TContext extends SchemaLike | undefined = undefined,
  TResult extends ExecuteResult<TOut> = ExecuteResult<TOut>,
>(
  options: ToolOptions<TId, TIn, TOut, TSuspend, TResume, TContext, TResult>,
): Tool<
  TId,
  SchemaInput<TIn>,
  SchemaOutput<TOut, Exclude<Awaited<TResult>, ValidationError | void>>,
  SchemaInput<TSuspend>,
  SchemaInput<TResume>,
  ContextOf<TContext>
> {
  assertToolOptions(options)
  const name = (what: string) => `${what} of tool "${options.id}"`
  const schemas: CompiledToolSchemas = {}
  if (options.inputSchema) schemas.input = compileSchema(options.inputSchema, name('inputSchema'))
  if (options.outputSchema) schemas.output = compileSchema(options.outputSchema, name('outputSchema'))
  if (options.suspendSchema) schemas.suspend = compileSchema(options.suspendSchema, name('suspendSchema'))
  if (options.resumeSchema) schemas.resume = compileSchema(options.resumeSchema, name('resumeSchema'))
  if (options.requestContextSchema) schemas.requestContext = compileSchema(options.requestContextSchema, name('requestContextSchema'))

  const tool = {
    [toolMarker]: true as const,
    id: options.id,
    description: options.description,
    options: options as ToolOptions<TId, any, any, any, any, any, any>,
    schemas,
    inputSchema: options.inputSchema,
    outputSchema: options.outputSchema,
    suspendSchema: options.suspendSchema,
    resumeSchema: options.resumeSchema,
    requestContextSchema: options.requestContextSchema,
    requireApproval: (options.requireApproval ?? false) as Tool['requireApproval'],
    mcp: options.mcp,
    background: options.background,
    execute: (input: unknown, context?: object) => executeDirect(tool as Tool, input, context),
  }
  return Object.freeze(tool) as never
}

/** Whether a value is a tool made by `createTool` (works across bundle copies). */
export function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[toolMarker] === true
}
