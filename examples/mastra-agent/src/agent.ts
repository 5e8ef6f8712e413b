import { Agent } from '@mastra/core/agent'
import { MCPClient, type MCPInputRequestHandler } from '@mastra/mcp'
import type { LanguageModel } from 'ai'

/**
 * Mastra's MCP client for a toolroute server. A tool that needs approval asks with an approve /
 * decline form (an `input_required` result under MCP 2026-07-28): `answer` is the agent's user
 * answering it, and toolroute approves or declines the tool's run, once.
 */
export function toolrouteMcp(baseUrl: string, answer: MCPInputRequestHandler): MCPClient {
  return new MCPClient({ id: `toolroute-${baseUrl}`, servers: { toolroute: { url: new URL('/mcp', baseUrl), inputRequests: answer } } })
}

/** A Mastra agent with the server's tools (named `toolroute_<tool>`). */
export async function toolrouteAgent(mcp: MCPClient, model: LanguageModel): Promise<Agent> {
  return new Agent({
    id: 'toolroute-agent',
    name: 'toolroute agent',
    instructions: 'Answer with the tools you have.',
    model: model as never,
    tools: await mcp.listTools(),
  })
}
