import { createTool } from 'toolroute'
import { z } from 'zod'

/** MCP annotations: clients learn this tool is destructive and idempotent, and ask before running it. */
export const deleteFile = createTool({
  id: 'delete-file',
  description: 'Delete a file from the workspace',
  inputSchema: z.object({ path: z.string().min(1) }),
  outputSchema: z.object({ deleted: z.string() }),
  requireApproval: true,
  mcp: {
    annotations: { title: 'Delete file', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    _meta: { category: 'filesystem' },
  },
  execute: async ({ path }) => ({ deleted: path }),
})
