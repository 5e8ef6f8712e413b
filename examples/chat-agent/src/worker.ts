import { convertToModelMessages, stepCountIs, streamText, type UIMessage } from 'ai'
import { toAiSdkTools } from 'toolroute/ai'
import { createToolClient } from 'toolroute/client'
import { createWorker, runsBinding, workerKeyStore, workerMastraRoutes, workerMcpServer, workerOpenApi, workerRunStore } from 'toolroute/workers'
import { modelOf, type ModelEnv } from './model.ts'
import { tools } from './tools.ts'

// toolroute serves the tools (/tools, /runs, /mcp); /chat is the agent that calls them.
const toolWorker = createWorker({ tools, keyStore: workerKeyStore, mcpServer: workerMcpServer, runStore: workerRunStore, openApi: workerOpenApi, mastraRoutes: workerMastraRoutes })

/** What the page reads of each assistant message: the toolroute run of each tool call, to replay it. */
export interface ChatMetadata {
  runs?: Record<string, string>
}

// #region chat-route
async function chat(request: Request, env: ModelEnv, ctx: ExecutionContext): Promise<Response> {
  const { messages } = (await request.json()) as { messages: UIMessage<ChatMetadata>[] }
  // The agent reaches the tools in-process; another Worker would pass its service binding as the fetcher.
  const client = createToolClient({ fetcher: { fetch: (input, init) => toolWorker.fetch(new Request(input, init), env, ctx) } })
  const runs: Record<string, string> = {}
  const result = streamText({
    model: modelOf(env),
    tools: await toAiSdkTools(client, { onRun: ({ toolCallId, runId }) => (runs[toolCallId] = runId) }),
    messages: await convertToModelMessages(messages),
    // The model answers after the tools' results: without it the agent stops at the first tool call.
    stopWhen: stepCountIs(5),
    abortSignal: request.signal,
  })
  return result.toUIMessageStreamResponse({ messageMetadata: ({ part }) => (part.type === 'finish' ? { runs } : undefined) })
}
// #endregion

export default {
  fetch(request: Request, env: ModelEnv & Record<typeof runsBinding, DurableObjectNamespace>, ctx: ExecutionContext) {
    const { pathname } = new URL(request.url)
    if (pathname === '/chat' && request.method === 'POST') return chat(request, env, ctx)
    return toolWorker.fetch(request, env, ctx)
  },
}
export class ToolRunObject extends toolWorker.ToolRunObject {}
export class McpSessionObject extends toolWorker.McpSessionObject {}
export class IdempotencyObject extends toolWorker.IdempotencyObject {}
