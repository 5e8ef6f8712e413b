/**
 * `toolroute/ai`: a toolroute server's tools as AI SDK tools. Needs `ai` (>= 6) installed beside it.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai'
 * import { createToolClient } from 'toolroute/client'
 * import { toAiSdkTools } from 'toolroute/ai'
 *
 * const tools = await toAiSdkTools(createToolClient({ baseUrl: 'https://tools.example.com' }))
 * // stopWhen lets the model answer after the tool's result (one step, the default, ends at the call)
 * const { text } = await generateText({ model, tools, prompt: 'Weather in Lisbon?', stopWhen: stepCountIs(3) })
 */
export { toAiSdkTools } from './to-ai-sdk-tools.ts'
export type { AiSdkToolsOf, PendingToolResult, ToAiSdkToolsOptions, ToolSuspension } from './to-ai-sdk-tools.ts'
export { aiSdkToolName, type AiSdkToolName } from './ai-sdk-tool-name.ts'
