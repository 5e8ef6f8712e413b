// toolroute on Workers with the repository's own example tools (tools/), as `toolroute build`
// would serve them: a plain tool, an approval tool, one that asks mid-call, one that suspends for
// an answer, and a background tool (a task under 2025-11-25).
import { createWorker, workerKeyStore, workerMastraRoutes, workerMcpServer, workerOpenApi, workerRunStore } from 'toolroute/workers'
import { bookFlight } from '../../../tools/book-flight.ts'
import { confirmOrder } from '../../../tools/confirm-order.ts'
import { deleteFile } from '../../../tools/delete-file.ts'
import { generateReport } from '../../../tools/generate-report.ts'
import { weatherTool } from '../../../tools/weather-tool.ts'

const worker = createWorker({ tools: [weatherTool, deleteFile, confirmOrder, bookFlight, generateReport], keyStore: workerKeyStore, mcpServer: workerMcpServer, runStore: workerRunStore, openApi: workerOpenApi, mastraRoutes: workerMastraRoutes })

export default { fetch: worker.fetch }
export class ToolRunObject extends worker.ToolRunObject {}
export class McpSessionObject extends worker.McpSessionObject {}
export class IdempotencyObject extends worker.IdempotencyObject {}
