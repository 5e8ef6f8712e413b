import { createTool } from 'toolroute'
import { z } from 'zod'

/** A plain tool: an MCP call answers its output. */
export const weather = createTool({
  id: 'weather',
  description: 'Get the current weather for a city',
  inputSchema: z.object({ city: z.string().min(1) }),
  outputSchema: z.object({ city: z.string(), temperatureCelsius: z.number() }),
  execute: async ({ city }) => ({ city, temperatureCelsius: 21 }),
})

/** Asks first: over MCP the question is an approve / decline form, and the answer approves the run once. */
export const deleteFile = createTool({
  id: 'delete-file',
  description: 'Delete a file from the workspace',
  inputSchema: z.object({ path: z.string().min(1) }),
  outputSchema: z.object({ deleted: z.string() }),
  requireApproval: true,
  execute: async ({ path }) => ({ deleted: path }),
})
