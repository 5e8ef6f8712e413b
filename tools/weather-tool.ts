import { createTool } from 'toolroute'
import { z } from 'zod'

/** The seed example: Zod schemas, a fixed forecast (no network on the request path). */
export const weatherTool = createTool({
  id: 'weather-tool',
  description: 'Get the current weather for a location',
  inputSchema: z.object({ location: z.string().min(1).describe('City name') }),
  outputSchema: z.object({ location: z.string(), temperatureCelsius: z.number(), conditions: z.string() }),
  inputExamples: [{ input: { location: 'Lisbon' } }],
  execute: async ({ location }) => ({ location, temperatureCelsius: 21, conditions: 'sunny' }),
})
