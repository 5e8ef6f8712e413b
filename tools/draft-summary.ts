import { createTool } from 'toolroute'
import { z } from 'zod'

/**
 * An async generator `execute`, the AI SDK's preliminary results: each `yield` is streamed as a
 * preliminary `tool-output-available`, and the last value yielded is the tool's output.
 */
export const draftSummary = createTool({
  id: 'draft-summary',
  description: 'Summarise a text, streaming each draft of the summary as it improves',
  inputSchema: z.object({ text: z.string().min(1), maxSentences: z.number().int().min(1).max(5).optional() }),
  outputSchema: z.object({ summary: z.string(), sentences: z.number(), done: z.boolean() }),
  async *execute({ text, maxSentences }) {
    const sentences = text.split(/(?<=[.!?])\s+/).filter(Boolean).slice(0, maxSentences ?? 3)
    for (const [index] of sentences.entries()) {
      const draft = sentences.slice(0, index + 1).join(' ')
      yield { summary: draft, sentences: index + 1, done: index + 1 === sentences.length }
    }
  },
})
