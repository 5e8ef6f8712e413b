// The Worker of the crash test (test/e2e/crash-recovery.test.ts): tools that stall in `execute`
// (logging first, so the test knows they are at work) until aborted, so that a `kill -9` finds
// each mid-execution. Its wrangler config gives leases of 2 s (TOOLROUTE_LEASE_MS), so a lapse is
// seconds away, not 30 s.
import { createTool } from 'toolroute'
import { createWorker, workerRunStore } from 'toolroute/workers'
import { z } from 'zod'

const stall = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true })
  })

const input = z.object({ ms: z.number().int().min(0).max(120_000) })
const output = z.object({ waited: z.number() })

/** A call that executes in its request for `ms`. */
const stalledCall = createTool({
  id: 'stalled-call',
  description: 'Waits ms milliseconds in the request',
  inputSchema: input,
  outputSchema: output,
  execute: async ({ ms }, { observe, abortSignal }) => {
    observe.log('info', 'stalled')
    await stall(ms, abortSignal)
    return { waited: ms }
  },
})

/** An approved step that executes in its run's Durable Object for `ms`. */
const stalledApproval = createTool({
  id: 'stalled-approval',
  description: 'Asks for approval, then waits ms milliseconds',
  inputSchema: input,
  outputSchema: output,
  requireApproval: true,
  execute: async ({ ms }, { observe, abortSignal }) => {
    observe.log('info', 'stalled')
    await stall(ms, abortSignal)
    return { waited: ms }
  },
})

/** A background run of two attempts at most, each `ms` long. */
const stalledReport = createTool({
  id: 'stalled-report',
  description: 'Waits ms milliseconds in the background',
  inputSchema: input,
  outputSchema: output,
  background: { enabled: true, timeoutMs: 60_000, maxRetries: 1 },
  execute: async ({ ms }, { observe, abortSignal }) => {
    observe.log('info', 'stalled')
    await stall(ms, abortSignal)
    return { waited: ms }
  },
})

const worker = createWorker({ tools: [stalledCall, stalledApproval, stalledReport], mcp: false, runStore: workerRunStore })

export default { fetch: worker.fetch }
export class ToolRunObject extends worker.ToolRunObject {}
export class McpSessionObject extends worker.McpSessionObject {}
export class IdempotencyObject extends worker.IdempotencyObject {}
