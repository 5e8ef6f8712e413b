import { createTool } from 'toolroute'
import { z } from 'zod'

/** Writes each file it indexes with `context.writer`: the chat shows them as the tool's progress. */
export const indexDocs = createTool({
  id: 'index-docs',
  description: 'Index documentation files for search, reporting each file as it goes',
  inputSchema: z.object({ files: z.array(z.string().min(1)).min(1).max(20) }),
  outputSchema: z.object({ indexed: z.number(), tokens: z.number() }),
  execute: async ({ files }, { writer, abortSignal }) => {
    let tokens = 0
    for (const [index, file] of files.entries()) {
      abortSignal.throwIfAborted()
      tokens += file.length * 100
      await writer.write({ file, indexed: index + 1, total: files.length })
    }
    return { indexed: files.length, tokens }
  },
})

/** Asks first: the chat shows Approve / Decline, and an approval approves this run once. */
export const deleteFile = createTool({
  id: 'delete-file',
  description: 'Delete a file from the workspace',
  inputSchema: z.object({ path: z.string().min(1) }),
  outputSchema: z.object({ deleted: z.string() }),
  requireApproval: true,
  execute: async ({ path }) => ({ deleted: path }),
})

/**
 * Runs in the background (a stored run, followed by the call): slow enough to be stopped. A caller
 * that cancels its call cancels the run (the agents-sdk example does, over MCP).
 */
export const summarizeDocs = createTool({
  id: 'summarize-docs',
  description: 'Summarize documentation files, one after another, in the background',
  inputSchema: z.object({ files: z.array(z.string().min(1)).min(1).max(20), msPerFile: z.number().int().min(0).max(5000).optional() }),
  outputSchema: z.object({ summarized: z.number() }),
  background: { enabled: true, timeoutMs: 120_000 },
  execute: async ({ files, msPerFile }, { abortSignal }) => {
    for (const _ of files) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, msPerFile ?? 100)
        abortSignal.addEventListener('abort', () => (clearTimeout(timer), reject(abortSignal.reason)), { once: true })
      })
    }
    return { summarized: files.length }
  },
})

export const tools = [indexDocs, deleteFile, summarizeDocs]
