import { Tool } from './tool.ts'

/** A constructor as a function: its generic signature carried over as it is (TypeScript's higher-order inference). */
const callable =
  <A extends unknown[], R>(Class: new (...args: A) => R) =>
  (...args: A): R =>
    new Class(...args)

/**
 * Defines a tool with the options of Mastra's `createTool`, types inferred from the schemas:
 * `new Tool(options)`, whose signature (`ToolConstructor`) is the one list of type parameters.
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
export const createTool = callable(Tool)
