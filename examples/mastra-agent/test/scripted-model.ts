import { MockLanguageModelV3 } from 'ai/test'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

/** The AI SDK's mock model, scripted: it calls `call`, then answers with the tool's result as text. */
export function scriptedModel(call: { toolName: string; input: unknown }) {
  let calls = 0
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const last = prompt.at(-1)
      const result = last?.role === 'tool' ? last.content.find((part) => part.type === 'tool-result') : undefined
      if (result) {
        return { content: [{ type: 'text', text: `Done: ${JSON.stringify(result.output)}` }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }
      }
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${++calls}`, toolName: call.toolName, input: JSON.stringify(call.input) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      }
    },
  })
}
