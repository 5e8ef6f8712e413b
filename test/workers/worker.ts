// The Worker the workerd tests run: the example tools of tools/ plus test-only fixtures.
// Under `/kv/` the same tools are served with runs in Workers KV instead of Durable Objects.
import { createToolApp } from 'toolroute/server'
import { createKvRunHost, createWorker, workerFinishedRunStore, workerKeyStore, workerMastraRoutes, workerMcpServer, workerOpenApi, workerRunStore, workerWebhooks } from 'toolroute/workers'
import { tools } from '../../.toolroute/tools.ts'
import { testTools } from '../fixtures/test-tools.ts'
import { mcpTestTools } from '../fixtures/mcp-tools.ts'
import { streamTools } from '../fixtures/stream-tools.ts'
import { limitedRunLimits, runFixtureTools } from './run-fixture-tools.ts'
import { canaryKindTools, canaryTools } from '../fixtures/canary-tools.ts'
import { webhookTestConfig } from './webhook-test-config.ts'

const allTools = [...tools, ...testTools, ...runFixtureTools, ...mcpTestTools, ...streamTools, ...canaryTools, ...canaryKindTools]
const worker = createWorker({ tools: allTools, keyStore: workerKeyStore, mcpServer: workerMcpServer, runStore: workerRunStore, openApi: workerOpenApi, mastraRoutes: workerMastraRoutes })
const kvApp = createToolApp({ tools: allTools, basePath: '/kv', runs: createKvRunHost(allTools, { pollMs: 20 }) })

export default {
  fetch(request: Request, env: unknown, ctx: ExecutionContext) {
    return new URL(request.url).pathname.startsWith('/kv/') ? kvApp.fetch(request, env, ctx) : worker.fetch(request, env, ctx)
  },
}
export class ToolRunObject extends worker.ToolRunObject {}
export class McpSessionObject extends worker.McpSessionObject {}
export class IdempotencyObject extends worker.IdempotencyObject {}
export { ExecutionCounter, RunStoreProbe } from './fixture-objects.ts'
/** The run object of a Worker whose tools never wait, as the build's entry exports it (bound as FINISHED_RUNS). */
export class FinishedToolRunObject extends createWorker({ tools: allTools, mcp: false, runStore: workerFinishedRunStore }).ToolRunObject {}
/** Runs with small event-log limits (bound as LIMITED_RUNS; runs-limits.test.ts binds it as TOOLROUTE_RUNS). */
export class LimitedToolRunObject extends createWorker({ tools: allTools, mcp: false, runStore: workerRunStore, runLimits: limitedRunLimits }).ToolRunObject {}
/** Runs whose objects tell webhooks (bound as WEBHOOK_RUNS; webhooks.test.ts binds it as TOOLROUTE_RUNS and names its receiver here first). */
export class WebhookToolRunObject extends createWorker({
  tools: allTools,
  mcp: false,
  runStore: workerRunStore,
  webhooks: webhookTestConfig.webhooks,
  webhookSender: () => workerWebhooks(webhookTestConfig),
}).ToolRunObject {}
