import { createToolClient } from '../client/create-tool-client.ts'
import type { ToolClient, ToolClientOptions, ToolSetLike } from '../client/tool-client-types.ts'
import type { RunView } from '../protocol/call-result.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { inWorkerd, loadVitestPool, type VitestPool } from './vitest-pool.ts'

export interface SettleOptions {
  /** How long the run may take to settle before `settle` rejects (default 30 s). */
  timeoutMs?: number
}

/**
 * Resolves with the run once it no longer runs (completed, failed, waiting for a human…). Inside
 * the pool, an alarm of the run's object that is due (a background attempt, a retry, an expiry)
 * is run at once, as `runDurableObjectAlarm` runs it; an attempt at work is waited for through the run's
 * own events, so no test sleeps. Without the pool, the run's events are followed to their end.
 */
async function settleRun(client: ToolClient<any>, pool: VitestPool | undefined, runId: string, options: SettleOptions = {}): Promise<RunView> {
  const timeoutMs = options.timeoutMs ?? 30_000
  const signal = AbortSignal.timeout(timeoutMs)
  const timedOut = new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(new Error(`Run ${runId} was still running after ${timeoutMs} ms`)), { once: true }),
  )
  timedOut.catch(() => {})
  const runs = pool?.runs
  // The run object of a run id (durable-object-run-host.ts names each object by its run id).
  const stub = runs ? runs.get(runs.idFromName(runId) as never) : undefined
  let after = 0
  while (true) {
    const run = await Promise.race([client.getRun(runId), timedOut])
    if (run.status !== 'running') return run
    if (stub && (await Promise.race([pool!.runDueAlarm(stub), timedOut]))) continue
    // An attempt at work: wait for its next event (without the pool, for all of them).
    after = await Promise.race([nextEvent(client, runId, after, signal, stub === undefined), timedOut])
  }
}

async function nextEvent(client: ToolClient<any>, runId: string, after: number, signal: AbortSignal, all: boolean): Promise<number> {
  for await (const { seq } of client.follow(runId, { after, signal })) {
    after = seq
    if (!all) break
  }
  return after
}

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
  return { ...client, settle: async (runId, settleOptions) => settleRun(client, inPool ? await loadVitestPool() : undefined, runId, settleOptions) }
}
