import { storedRunReason } from '../manifest/stored-run-reason.ts'
import type { ToolRoute } from '../manifest/tool-manifest.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/**
 * Why an app's calls can reach a run store, one message each: a tool that waits, `Idempotency-Key`
 * honoured (anything but `idempotency: false`: a keyed call stores its run, so an SSE repeat replays
 * it), `storeRuns: 'all'`. The one rule `toolroute build` and `createWorker` share.
 */
export function runStoreReasons(
  tools: Iterable<AnyTool | ToolRoute>,
  use: { idempotency?: unknown; storeRuns?: 'stateful' | 'all' },
): string[] {
  const reasons: string[] = []
  if (use.storeRuns === 'all') reasons.push("storeRuns is 'all'")
  if (use.idempotency !== false) reasons.push('calls with an Idempotency-Key store their run (set `idempotency: false` to ignore the header)')
  for (const tool of tools) {
    const reason = storedRunReason(tool)
    if (reason) reasons.push(reason)
  }
  return reasons
}
