import { MockLanguageModelV3 } from 'ai/test'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

/** A mock model for tests: it calls `toolName` with `input`, then answers with the tool's result as text. */
export function scriptedModel(toolName: string, input: unknown, toolCallId = 'call_1') {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const last = prompt.at(-1)
      if (last?.role === 'tool') {
        const result = last.content.find((part) => part.type === 'tool-result')
        return { content: [{ type: 'text', text: `Done: ${JSON.stringify(result?.output)}` }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }
      }
      return { content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] }
    },
  })
}
