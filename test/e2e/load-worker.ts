// The Worker of the load test (test/e2e/load.test.ts): the example tools of tools/, plus a
// background tool that stays silent as long as it is asked to, served with a keep-alive every
// 250 ms of silence, so an idle follower sees its comments within the seconds the test runs.
import { createTool } from 'toolroute'
import { createWorker, workerKeyStore, workerRunStore } from 'toolroute/workers'
import { z } from 'zod'
import { tools } from '../../.toolroute/tools.ts'

/** The follower's run: waits `ms` (or until cancelled) without a word, then ends. */
const quietBackground = createTool({
  id: 'quiet-background',
  description: 'Silent for ms milliseconds, in the background',
  inputSchema: z.object({ ms: z.number().int().min(0).max(120_000) }),
  outputSchema: z.object({ waited: z.number() }),
  background: { enabled: true, timeoutMs: 150_000, maxRetries: 0 },
  execute: async ({ ms }, { abortSignal }) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms)
      abortSignal.addEventListener('abort', () => (clearTimeout(timer), reject(abortSignal.reason)), { once: true })
    })
    return { waited: ms }
  },
})

// The load test reads the same figure.
const worker = createWorker({ tools: [...tools, quietBackground], keepAliveMs: 250, runStore: workerRunStore, keyStore: workerKeyStore })

export default { fetch: worker.fetch }
export class ToolRunObject extends worker.ToolRunObject {}
export class IdempotencyObject extends worker.IdempotencyObject {}
