/**
 * `toolroute/ai`: a toolroute server's tools as AI SDK tools (`toAiSdkTools`, whose doc has the
 * example). Needs `ai` (>= 6) installed beside it.
 */
export { toAiSdkTools } from './to-ai-sdk-tools.ts'
export type { AiSdkToolsOf, PendingToolResult, ToAiSdkToolsOptions, ToolSuspension } from './to-ai-sdk-tools.ts'
export { aiSdkToolName, type AiSdkToolName } from './ai-sdk-tool-name.ts'
