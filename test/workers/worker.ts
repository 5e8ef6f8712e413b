// The Worker the workerd tests run: the example tools of tools/ plus test-only fixtures.
import { createWorker } from 'toolroute/workers'
import { tools } from '../../.toolroute/tools.ts'
import { testTools } from '../fixtures/test-tools.ts'
import { mcpTestTools } from '../fixtures/mcp-tools.ts'

const worker = createWorker({ tools: [...tools, ...testTools, ...mcpTestTools] })

export default { fetch: worker.fetch }
export class ToolRunObject extends worker.ToolRunObject {}
export class McpSessionObject extends worker.McpSessionObject {}
