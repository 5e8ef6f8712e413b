// toolroute/ai forwards a remote tool's streamed output to the AI SDK: an async generator's
// preliminary outputs become the AI SDK's preliminary tool results (streamText's fullStream),
// and the last one is the tool's result.
import { SELF } from 'cloudflare:test'
import { stepCountIs, streamText } from 'ai'
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { toAiSdkTools } from 'toolroute/ai'
import { createToolClient } from 'toolroute/client'

const client = createToolClient({ fetcher: SELF })
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

/** A streaming model that calls one tool, then answers with text once it has the tool's result. */
function streamingModel(call: { toolCallId: string; toolName: string; input: unknown }) {
  return new MockLanguageModelV3({
    doStream: async (options) => {
      const answered = options.prompt.at(-1)?.role === 'tool'
      const chunks = answered
        ? [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'Done.' },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ]
        : [
            { type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: JSON.stringify(call.input) },
            { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
          ]
      return { stream: simulateReadableStream({ chunks: chunks as never[] }) }
    },
  })
}

describe('toAiSdkTools: streamed output', () => {
  it("an async generator's yields are the AI SDK's preliminary tool results; the last one is the result", async () => {
    const tools = await toAiSdkTools(client, { tools: ['draft-summary'] })
    const result = streamText({
      model: streamingModel({ toolCallId: 'call_draft', toolName: 'draft-summary', input: { text: 'One. Two. Three.' } }),
      tools,
      prompt: 'Summarise',
      stopWhen: stepCountIs(2),
    })
    const results: { preliminary?: boolean; output: unknown }[] = []
    for await (const part of result.fullStream) if (part.type === 'tool-result') results.push(part as never)
    expect(results.map((part) => [(part.output as { sentences: number }).sentences, part.preliminary ?? false])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [3, true],
      [3, false],
    ])
    const steps = await result.steps
    expect(steps[0]!.toolResults[0]!.output).toEqual({ summary: 'One. Two. Three.', sentences: 3, done: true })
    expect(await result.text).toBe('Done.')
  })

  it('a generator that fails midway is a tool error, after its preliminary result', async () => {
    const tools = await toAiSdkTools(client, { tools: ['flaky-drafts'] })
    const result = streamText({ model: streamingModel({ toolCallId: 'call_flaky', toolName: 'flaky-drafts', input: {} }), tools, prompt: 'Draft', stopWhen: stepCountIs(2) })
    const parts: string[] = []
    for await (const part of result.fullStream) {
      if (part.type === 'tool-result') parts.push(`result:${part.preliminary ? 'preliminary' : 'final'}`)
      if (part.type === 'tool-error') parts.push(`error:${String((part.error as Error).message ?? part.error)}`)
    }
    expect(parts).toEqual(['result:preliminary', 'error:the model went away'])
  })

  it('a tool that only writes: its result is the output; what it wrote is not a result', async () => {
    const tools = await toAiSdkTools(client, { tools: ['progress-writer'] })
    const result = streamText({ model: streamingModel({ toolCallId: 'call_progress', toolName: 'progress-writer', input: { steps: 2 } }), tools, prompt: 'Go', stopWhen: stepCountIs(2) })
    const results: { preliminary?: boolean; output: unknown }[] = []
    for await (const part of result.fullStream) if (part.type === 'tool-result') results.push(part as never)
    // The adapter's execute is a generator, so the AI SDK repeats its last yield as the final result.
    expect(results.map((part) => part.output)).toEqual([{ steps: 2, secret: 's3cret' }, { steps: 2, secret: 's3cret' }])
    expect(results.at(-1)!.preliminary).toBeFalsy()
  })
})
