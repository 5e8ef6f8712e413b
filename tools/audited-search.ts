import { createTool } from 'toolroute'
import { z } from 'zod'

/** Every lifecycle hook, in order: onInputStart → onInputDelta* → onInputAvailable → execute → onOutput. */
export const auditedSearch = createTool({
  id: 'audited-search',
  description: 'Search the docs, logging each stage of the call',
  inputSchema: z.object({ query: z.string().min(1), limit: z.number().int().positive().max(20).optional() }),
  outputSchema: z.object({ results: z.array(z.object({ title: z.string(), score: z.number() })) }),
  onInputStart: ({ toolCallId }) => console.log(`[audited-search] ${toolCallId} input started`),
  onInputDelta: ({ toolCallId, inputTextDelta }) => console.log(`[audited-search] ${toolCallId} delta ${JSON.stringify(inputTextDelta)}`),
  onInputAvailable: ({ toolCallId, input }) => console.log(`[audited-search] ${toolCallId} input ${JSON.stringify(input)}`),
  execute: async ({ query, limit }, { observe }) => {
    observe.log('info', 'searching', { query })
    const results = await observe.span('rank', () =>
      ['Getting started', 'Durable runs', 'MCP'].map((title, index) => ({ title: `${title}: ${query}`, score: 1 - index / 10 })),
    )
    return { results: results.slice(0, limit ?? 3) }
  },
  onOutput: ({ toolCallId, output }) => console.log(`[audited-search] ${toolCallId} ${output.results.length} results`),
})
