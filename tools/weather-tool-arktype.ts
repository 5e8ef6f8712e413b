import { createTool } from 'toolroute'
import { type } from 'arktype'

/** The weather tool with ArkType schemas. */
export const weatherToolArktype = createTool({
  id: 'weather-tool-arktype',
  description: 'Get the current weather for a location (ArkType schemas)',
  inputSchema: type({ location: 'string > 0' }),
  outputSchema: type({ location: 'string', temperatureCelsius: 'number', conditions: 'string' }),
  execute: async ({ location }) => ({ location, temperatureCelsius: 21, conditions: 'sunny' }),
})
