import { generateText, type Tool } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { createToolClient } from '../client/create-tool-client.ts'
import { createTool } from '../runtime/create-tool.ts'
import { toAiSdkTools, type PendingToolResult } from './to-ai-sdk-tools.ts'
import type { AiSdkToolName } from './ai-sdk-tool-name.ts'

const weatherTool = createTool({
  id: 'weather-tool',
  description: 'Weather',
  inputSchema: z.object({ location: z.string() }),
  outputSchema: z.object({ temperature: z.number() }),
  execute: async () => ({ temperature: 21 }),
})
const otherTool = createTool({ id: 'other-tool', description: 'Other', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => n })
const lookupOrder = createTool({ id: 'Lookup order', description: 'Lookup', inputSchema: z.object({ orderNumber: z.string() }), execute: async () => ({ found: true }) })
const dotted = createTool({ id: 'orders.lookup', description: 'Dotted', inputSchema: z.object({ orderNumber: z.string() }), execute: async () => 1 })
const long = createTool({ id: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.long-id', description: 'Long', inputSchema: z.object({}), execute: async () => 'ok' })

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

  it('keys tools by their names for the model, as at run time', async () => {
    const tools = await toAiSdkTools(createToolClient<[typeof lookupOrder, typeof dotted, typeof long]>({ baseUrl: 'https://x' }))
    expectTypeOf<keyof typeof tools>().toEqualTypeOf<'Lookup_order' | 'orders_lookup' | 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx_lon'>()
    expectTypeOf(tools['Lookup_order']).toEqualTypeOf<Tool<{ orderNumber: string }, { found: boolean } | PendingToolResult>>()
    expectTypeOf(tools['orders_lookup']).toEqualTypeOf<Tool<{ orderNumber: string }, number | PendingToolResult>>()
    expectTypeOf<AiSdkToolName<'Lookup order'>>().toEqualTypeOf<'Lookup_order'>()
    expectTypeOf<AiSdkToolName<string>>().toEqualTypeOf<string>()
    // @ts-expect-error the id is not the key when providers refuse it
    void tools['Lookup order']
  })

  it('is a ToolSet generateText takes', async () => {
    void generateText({ model: new MockLanguageModelV3(), tools: await toAiSdkTools(client), prompt: 'hi' })
    void generateText({ model: new MockLanguageModelV3(), tools: await toAiSdkTools(createToolClient({ baseUrl: 'https://x' })), prompt: 'hi' })
  })
})
