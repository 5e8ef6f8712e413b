// toolroute on Node for the same weather tool: `createToolApp` from `toolroute/server` (every default
// feature on, as a user gets it) served through `@hono/node-server`. Its routes: `POST /tools/weather-tool`
// (toolroute's own) and `POST /api/tools/weather-tool/execute` (the Mastra-compatible one). Bundled by
// peers.bench.mjs into bench/.build/ (Node cannot import the TypeScript sources); prints the port once listening.
import { serve } from '@hono/node-server'
import { createToolApp } from 'toolroute/server'
import { weatherTool } from '../../tools/weather-tool.ts'

const app = createToolApp({ tools: [weatherTool] })
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, ({ port }) => console.log(`port ${port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
