// toolroute/ai forwards a remote tool's streamed output to the AI SDK: an async generator's
// preliminary outputs become the AI SDK's preliminary tool results (streamText's fullStream),
// and the last one is the tool's result.
import { SELF } from 'cloudflare:test'
import { stepCountIs, streamText } from 'ai'
import { describe, expect, it } from 'vitest'
import { toAiSdkTools } from 'toolroute/ai'
import { createToolClient } from 'toolroute/client'
import { streamingToolModel as streamingModel } from '../fixtures/streaming-tool-model.ts'

const client = createToolClient({ fetcher: SELF })
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

  it("what a tool writes with context.writer reaches the agent as preliminary results, before its result", async () => {
    const tools = await toAiSdkTools(client, { tools: ['progress-writer'] })
    const result = streamText({ model: streamingModel({ toolCallId: 'call_progress', toolName: 'progress-writer', input: { steps: 2 } }), tools, prompt: 'Go', stopWhen: stepCountIs(2) })
    const results: { preliminary?: boolean; output: unknown }[] = []
    for await (const part of result.fullStream) if (part.type === 'tool-result') results.push(part as never)
    // Each writer.write, then the output (the AI SDK repeats its generator's last yield as the result);
    // custom data parts (progress, the transient heartbeat) are the UI's, not results.
    expect(results.map((part) => [part.output, part.preliminary ?? false])).toEqual([
      [{ step: 1 }, true],
      [{ step: 2 }, true],
      [{ steps: 2, secret: 's3cret' }, true],
      [{ steps: 2, secret: 's3cret' }, false],
    ])
    expect((await result.steps)[0]!.toolResults[0]!.output).toEqual({ steps: 2, secret: 's3cret' })
    expect(await result.text).toBe('Done.')
  })

  it('the UI message stream carries them as preliminary tool outputs, as useChat shows progress', async () => {
    const tools = await toAiSdkTools(client, { tools: ['progress-writer'] })
    const result = streamText({ model: streamingModel({ toolCallId: 'call_ui', toolName: 'progress-writer', input: { steps: 2 } }), tools, prompt: 'Go', stopWhen: stepCountIs(2) })
    const outputs: unknown[] = []
    for await (const chunk of result.toUIMessageStream()) {
      if (chunk.type === 'tool-output-available') outputs.push([chunk.output, chunk.preliminary ?? false])
    }
    expect(outputs).toEqual([
      [{ step: 1 }, true],
      [{ step: 2 }, true],
      [{ steps: 2, secret: 's3cret' }, true],
      [{ steps: 2, secret: 's3cret' }, false],
    ])
  })
})
