import { createTool } from 'toolroute'
import { z } from 'zod'

/** `strict: true`: providers that support it generate arguments that match the schema exactly. */
export const weatherToolStrict = createTool({
  id: 'weather-tool-strict',
  description: 'Get the current weather for a location (strict tool input)',
  strict: true,
  inputSchema: z.strictObject({ location: z.string(), units: z.enum(['celsius', 'fahrenheit']).nullable() }),
  outputSchema: z.object({ location: z.string(), temperature: z.number(), units: z.enum(['celsius', 'fahrenheit']) }),
  execute: async ({ location, units }) => {
    const chosen = units ?? 'celsius'
    return { location, temperature: chosen === 'celsius' ? 21 : 69.8, units: chosen }
  },
})
