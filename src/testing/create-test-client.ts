import { createToolClient } from '../client/create-tool-client.ts'
import type { ToolClient, ToolClientOptions, ToolSetLike } from '../client/tool-client-types.ts'
import type { RunView } from '../protocol/call-result.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { settleRun, type SettleOptions } from './settle-run.ts'
import { inWorkerd, loadVitestPool, type VitestPool } from './vitest-pool.ts'

/** The typed client of `toolroute/client` over the Worker under test, with `settle`. */
export interface TestClient<T extends ToolSetLike = readonly AnyTool[]> extends ToolClient<T> {
  /**
   * Resolves with the run once it no longer runs or waits on a timer: inside the pool, the run
   * object's due alarms (background attempts, retries, expiry) are run instead of waited for.
   */
  settle(runId: string, options?: SettleOptions): Promise<RunView>
}

/**
 * A client for tests. With no `fetcher` or `baseUrl` it calls the Worker under test of
 * `@cloudflare/vitest-plugin`'s pool (its `exports.default`, what `SELF` was), so a test reaches
 * the real routes, Durable Objects and bindings in workerd; other options are `createToolClient`'s.
 *
 * @example
 * import type { Tools } from '../.toolroute/tools.ts'
 * const client = createTestClient<Tools>()
 * const { runId } = await client.call('generate-report', { month: '2026-01' })
 * expect(await client.settle(runId)).toMatchObject({ status: 'completed' })
 */
export function createTestClient<T extends ToolSetLike = readonly AnyTool[]>(options: ToolClientOptions = {}): TestClient<T> {
  const inPool = options.baseUrl === undefined && options.fetcher === undefined && options.fetch === undefined
  if (inPool && !inWorkerd()) {
    throw new TypeError("createTestClient() with no options calls the Worker under test inside @cloudflare/vitest-plugin's pool; elsewhere pass { fetcher } or { baseUrl }")
  }
  const client = createToolClient<T>(
    inPool ? { ...options, baseUrl: 'http://localhost', fetch: async (request) => (await loadVitestPool()).self.fetch(request) } : options,
  )
  // The alarms `settle` runs are those of the pool's own Worker; any other Worker's run is followed.
  const pool = (): Promise<VitestPool | undefined> => (inPool ? loadVitestPool() : Promise.resolve(undefined))
  return { ...client, settle: async (runId, settleOptions) => settleRun(client, await pool(), runId, settleOptions) }
}
