import { createTool } from 'toolroute'
import { z } from 'zod'

/**
 * Streams its progress with `context.writer` while it runs in the background: each file indexed
 * is a `data-tool-output` (kept in the run's log, replayed by `GET /runs/:runId/events`), and a
 * status part that only live readers see (`transient: true`, never stored).
 */
export const indexRepository = createTool({
  id: 'index-repository',
  description: 'Index the files of a repository for search, reporting progress as it goes (runs in the background)',
  inputSchema: z.object({
    repository: z.string().min(1),
    files: z.array(z.string().min(1)).min(1).max(50),
    delayMs: z.number().int().min(0).max(2000).optional(),
  }),
  outputSchema: z.object({ repository: z.string(), indexed: z.number(), tokens: z.number() }),
  background: { enabled: true, timeoutMs: 60_000 },
  execute: async ({ repository, files, delayMs }, { writer, abortSignal }) => {
    let tokens = 0
    for (const [index, file] of files.entries()) {
      await new Promise((resolve) => setTimeout(resolve, delayMs ?? 20))
      abortSignal.throwIfAborted()
      tokens += file.length * 10
      await writer.write({ file, indexed: index + 1, total: files.length })
      await writer.custom({ type: 'data-index-status', id: 'status', data: { percent: Math.round(((index + 1) / files.length) * 100) }, transient: true })
    }
    return { repository, indexed: files.length, tokens }
  },
})
