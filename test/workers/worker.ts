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

/**
 * Runs whose objects reach their principals' indexes through a wrapper of the namespace that fails the
 * first `indexPut` of each run, as a send cut off by a reset would (bound as FLAKY_INDEX_RUNS;
 * runs-list-outbox.test.ts binds it as TOOLROUTE_RUNS).
 */
export class FlakyIndexToolRunObject extends worker.ToolRunObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, { ...env, TOOLROUTE_RUNS: failingFirstIndexPut(env.FLAKY_INDEX_RUNS) })
  }
}
const failedRuns = new Set<string>()
function failingFirstIndexPut(namespace: DurableObjectNamespace): DurableObjectNamespace {
  const get = (id: DurableObjectId) => {
    const stub = namespace.get(id) as unknown as Record<string, (...args: unknown[]) => unknown>
    return new Proxy(stub, {
      get: (target, key) =>
        key === 'indexPut'
          ? async (entry: { runId: string }, version?: number) => {
              if (failedRuns.has(entry.runId)) return target.indexPut!(entry, version)
              failedRuns.add(entry.runId)
              throw new Error('The index object did not answer')
            }
          : Reflect.get(target, key),
    })
  }
  return { idFromName: (name: string) => namespace.idFromName(name), get } as unknown as DurableObjectNamespace
}
