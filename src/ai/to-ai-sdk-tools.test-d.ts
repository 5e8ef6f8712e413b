import { generateText, type Tool } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { createToolClient } from '../client/create-tool-client.ts'
import { createTool } from '../tool/create-tool.ts'
import { toAiSdkTools, type PendingToolResult } from './to-ai-sdk-tools.ts'

const weatherTool = createTool({
  id: 'weather-tool',
  description: 'Weather',
  inputSchema: z.object({ location: z.string() }),
  outputSchema: z.object({ temperature: z.number() }),
  execute: async () => ({ temperature: 21 }),
})
const otherTool = createTool({ id: 'other-tool', description: 'Other', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => n })

describe('toAiSdkTools types', () => {
  const client = createToolClient<[typeof weatherTool, typeof otherTool]>({ baseUrl: 'https://tools.example.com' })

  it('types each AI SDK tool from the server’s tool', async () => {
    const tools = await toAiSdkTools(client)
    expectTypeOf(tools['weather-tool']).toEqualTypeOf<Tool<{ location: string }, { temperature: number } | PendingToolResult>>()
    expectTypeOf(tools['other-tool']).toEqualTypeOf<Tool<{ n: number }, number | PendingToolResult>>()
  })

  it('narrows to the tools asked for, and refuses unknown ids', async () => {
    const only = await toAiSdkTools(client, { tools: ['weather-tool'] })
    expectTypeOf(only).toHaveProperty('weather-tool')
    expectTypeOf(only).not.toHaveProperty('other-tool')
    // @ts-expect-error not a tool of the server
    void toAiSdkTools(client, { tools: ['nope'] })
  })

  it('is a ToolSet generateText takes', async () => {
    void generateText({ model: new MockLanguageModelV3(), tools: await toAiSdkTools(client), prompt: 'hi' })
    void generateText({ model: new MockLanguageModelV3(), tools: await toAiSdkTools(createToolClient({ baseUrl: 'https://x' })), prompt: 'hi' })
  })
})
