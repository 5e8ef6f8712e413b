// The toolroute server the agent reaches over MCP: another Worker, as it would be deployed.
import { createWorker, workerMcpServer, workerRunStore } from 'toolroute/workers'
import { deleteFile, weather } from './tools.ts'

const worker = createWorker({ tools: [weather, deleteFile], mcpServer: workerMcpServer, runStore: workerRunStore })

export default { fetch: worker.fetch }
export class ToolRunObject extends worker.ToolRunObject {}
export class McpSessionObject extends worker.McpSessionObject {}
export class IdempotencyObject extends worker.IdempotencyObject {}
