import { generateText, stepCountIs, type LanguageModel, type ModelMessage } from 'ai'
import { toAiSdkTools } from 'toolroute/ai'
import type { ToolClient } from 'toolroute/client'

/**
 * One question to an agent whose tools may need approval. `generateText` stops at a call that needs
 * it (a `tool-approval-request` part); `approve` decides, and the answer goes back as a
 * `tool-approval-response` in the next `generateText`, which runs the approved call (on the server: an
 * approve of its run) or tells the model it was denied.
 */
export async function askWithApproval(model: LanguageModel, client: ToolClient, prompt: string, approve: (call: { toolName: string; input: unknown }) => Promise<boolean>): Promise<string> {
  const tools = await toAiSdkTools(client)
  const messages: ModelMessage[] = [{ role: 'user', content: prompt }]
  for (;;) {
    const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) })
    messages.push(...result.response.messages)
    const requests = result.content.filter((part) => part.type === 'tool-approval-request')
    if (requests.length === 0) return result.text
    const answers = await Promise.all(requests.map(async ({ approvalId, toolCall }) => ({ type: 'tool-approval-response' as const, approvalId, approved: await approve(toolCall) })))
    messages.push({ role: 'tool', content: answers })
  }
}
