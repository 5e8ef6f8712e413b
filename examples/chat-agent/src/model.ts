import { createGateway, type LanguageModel } from 'ai'
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test'

export interface ModelEnv {
  MODEL: string
  AI_GATEWAY_API_KEY?: string
}

/** The model of `env.MODEL`: an AI Gateway model id, or "mock" (the tests' scripted model). */
export function modelOf(env: ModelEnv): LanguageModel {
  if (env.MODEL === 'mock') return scriptedModel()
  return createGateway({ apiKey: env.AI_GATEWAY_API_KEY })(env.MODEL)
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
type Prompt = Parameters<MockLanguageModelV3['doStream']>[0]['prompt']

/**
 * The AI SDK's mock model, scripted as a model that calls tools: "delete <path>" calls delete-file,
 * any other message index-docs; once the last message is a tool's result it answers in words.
 */
function scriptedModel(): LanguageModel {
  return new MockLanguageModelV3({
    doStream: async ({ prompt }) => ({ stream: simulateReadableStream({ chunks: chunksFor(prompt) as never[], chunkDelayInMs: null }) }),
    // generateText: the same turn, whole.
    doGenerate: async ({ prompt }) => {
      const chunks = chunksFor(prompt)
      const finish = chunks.at(-1) as { finishReason: { unified: 'stop' | 'tool-calls'; raw: string } }
      const content = chunks.flatMap((chunk) =>
        chunk.type === 'tool-call' ? [chunk] : chunk.type === 'text-delta' ? [{ type: 'text' as const, text: (chunk as { delta: string }).delta }] : [],
      )
      return { content: content as never[], finishReason: finish.finishReason, usage, warnings: [] }
    },
  })
}

function chunksFor(prompt: Prompt) {
  const last = prompt.at(-1)
  if (last?.role === 'tool') {
    const result = last.content.find((part) => part.type === 'tool-result')
    const output = result?.output
    const text =
      output?.type === 'json' ? `Done: ${JSON.stringify(output.value)}` : output?.type === 'execution-denied' ? 'Understood, I left it alone.' : 'Something went wrong.'
    return [
      { type: 'text-start', id: 'answer' },
      { type: 'text-delta', id: 'answer', delta: text },
      { type: 'text-end', id: 'answer' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ]
  }
  const said = last?.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ') : ''
  const path = /delete\s+(\S+)/i.exec(said)?.[1]
  // A fresh id per call, as a provider gives: toolroute keys each call's run by it.
  const call = path
    ? { toolName: 'delete-file', input: { path } }
    : { toolName: 'index-docs', input: { files: ['getting-started.md', 'agents.md', 'runs.md'] } }
  return [
    { type: 'tool-call', toolCallId: `call_${crypto.randomUUID()}`, toolName: call.toolName, input: JSON.stringify(call.input) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  ]
}
