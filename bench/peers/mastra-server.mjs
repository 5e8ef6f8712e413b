// Mastra's own server for the weather tool: `@mastra/core` `createTool` with the same Zod schemas and
// execute as tools/weather-tool.ts, registered on a `Mastra`, served by `@mastra/hono`'s `MastraServer`
// (Mastra's documented way to serve on Node) through `@hono/node-server`. Its tool route is
// `POST /api/tools/weather-tool/execute` with `{ data }`. Prints the port once listening.
import { serve } from '@hono/node-server'
import { Mastra } from '@mastra/core/mastra'
import { createTool } from '@mastra/core/tools'
import { MastraServer } from '@mastra/hono'
import { Hono } from 'hono'
import { z } from 'zod'

const weatherTool = createTool({
  id: 'weather-tool',
  description: 'Get the current weather for a location',
  inputSchema: z.object({ location: z.string().min(1).describe('City name') }),
  outputSchema: z.object({ location: z.string(), temperatureCelsius: z.number(), conditions: z.string() }),
  execute: async ({ location }) => ({ location, temperatureCelsius: 21, conditions: 'sunny' }),
})

const mastra = new Mastra({ tools: { 'weather-tool': weatherTool }, logger: false })
const app = new Hono()
await new MastraServer({ app, mastra }).init()
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, ({ port }) => console.log(`port ${port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
