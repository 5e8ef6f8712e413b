import type { SchemaLike } from '../schema/standard-schema.ts'
import type { ToolOptions } from '../tool/tool-types.ts'
import { Tool, type ExecuteResult, type ToolOf } from './tool.ts'

/**
 * Defines a tool with the options of Mastra's `createTool`, types inferred from the schemas:
 * `new Tool(options)`, as in Mastra. Schemas are compiled and their JSON Schema computed here,
 * once, never per request.
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
): ToolOf<TId, TIn, TOut, TSuspend, TResume, TContext, TResult> {
  return new Tool(options)
}
