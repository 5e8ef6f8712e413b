/**
 * `toolroute/ai`: a toolroute server's tools as AI SDK tools. Needs `ai` (>= 6) installed beside it.
 *
 * @example
 * import { generateText } from 'ai'
 * import { createToolClient } from 'toolroute/client'
 * import { toAiSdkTools } from 'toolroute/ai'
 *
 * const tools = await toAiSdkTools(createToolClient({ baseUrl: 'https://tools.example.com' }))
 * const { text } = await generateText({ model, tools, prompt: 'Weather in Lisbon?' })
 */
export { toAiSdkTools } from './to-ai-sdk-tools.ts'
export type { AiSdkToolsOf, PendingToolResult, ToAiSdkToolsOptions, ToolSuspension } from './to-ai-sdk-tools.ts'
export { aiSdkToolName, type AiSdkToolName } from './ai-sdk-tool-name.ts'
