import type { RunView } from '../protocol/call-result.ts'
import type { ToolClient } from '../client/tool-client-types.ts'
import type { VitestPool } from './vitest-pool.ts'

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
export async function settleRun(client: ToolClient<any>, pool: VitestPool | undefined, runId: string, options: SettleOptions = {}): Promise<RunView> {
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
