// The MCP baseline: what a developer writes by hand for the weather tool with the official SDK v2,
// served statelessly by its own createMcpHandler (the 2026-07-28 per-request handler): McpServer,
// the tool registered with its Zod schemas, the same execute, its output as structuredContent and
// as a text block, as toolroute answers. No toolroute code but the tool's execute function.
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server'
import { weatherTool } from '../../tools/weather-tool.ts'

const { inputSchema, outputSchema } = weatherTool
const execute = weatherTool.options.execute!

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bare', version: '1.0.0' })
    server.registerTool('weather-tool', { description: weatherTool.description, inputSchema, outputSchema }, async (input) => {
      const output = outputSchema.parse(await execute(input as never, {} as never))
      return { structuredContent: output, content: [{ type: 'text', text: JSON.stringify(output) }] }
    })
    return server
  },
  { legacy: 'reject' },
)

export default { fetch: (request: Request) => handler.fetch(request) }
