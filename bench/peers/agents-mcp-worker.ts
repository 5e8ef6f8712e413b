// Cloudflare's MCP-only Worker for the weather tool, as the Agents SDK documents it: `agents`
// `createMcpHandler` (agents/mcp/server, stateless) over an SDK v2 `McpServer` made per request, the
// tool registered with the same Zod schemas and execute as tools/weather-tool.ts, its output as
// structuredContent and a text block (as toolroute answers). No toolroute code at all: peers.bench.mjs
// copies it into a project outside bench/ (so it bundles the one Zod toolroute does) and bundles it
// with `wrangler deploy --dry-run --minify`, `agents` aliased to bench/node_modules.
import { McpServer } from '@modelcontextprotocol/server'
import { createMcpHandler } from 'agents/mcp/server'
import { z } from 'zod'

const inputSchema = z.object({ location: z.string().min(1).describe('City name') })
const outputSchema = z.object({ location: z.string(), temperatureCelsius: z.number(), conditions: z.string() })
const execute = async ({ location }: { location: string }) => ({ location, temperatureCelsius: 21, conditions: 'sunny' })

export default {
  fetch: createMcpHandler(() => {
    const server = new McpServer({ name: 'agents-bench', version: '1.0.0' })
    server.registerTool('weather-tool', { description: 'Get the current weather for a location', inputSchema, outputSchema }, async (input) => {
      const output = outputSchema.parse(await execute(input))
      return { structuredContent: output, content: [{ type: 'text', text: JSON.stringify(output) }] }
    })
    return server
  }),
}
