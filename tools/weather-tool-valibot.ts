import { createTool } from 'toolroute'
import * as v from 'valibot'
import { toStandardJsonSchema } from '@valibot/to-json-schema'

/** The weather tool with Valibot schemas, made Standard JSON Schema by `toStandardJsonSchema`. */
export const weatherToolValibot = createTool({
  id: 'weather-tool-valibot',
  description: 'Get the current weather for a location (Valibot schemas)',
  inputSchema: toStandardJsonSchema(v.object({ location: v.pipe(v.string(), v.minLength(1)) })),
  outputSchema: toStandardJsonSchema(v.object({ location: v.string(), temperatureCelsius: v.number(), conditions: v.string() })),
  execute: async ({ location }) => ({ location, temperatureCelsius: 21, conditions: 'sunny' }),
})
