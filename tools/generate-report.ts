import { createTool } from 'toolroute'
import { z } from 'zod'

/** A background tool: the call answers `running` at once; the work runs in the run's Durable Object. */
export const generateReport = createTool({
  id: 'generate-report',
  description: 'Generate a usage report (runs in the background)',
  inputSchema: z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), delayMs: z.number().int().min(0).max(5000).optional() }),
  outputSchema: z.object({ month: z.string(), rows: z.number() }),
  background: { enabled: true, timeoutMs: 30_000, maxRetries: 1 },
  execute: async ({ month, delayMs }, { observe, abortSignal }) => {
    observe.log('info', 'report started', { month })
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, delayMs ?? 200)
      abortSignal.addEventListener('abort', () => (clearTimeout(timer), reject(abortSignal.reason)), { once: true })
    })
    return { month, rows: 31 }
  },
})
