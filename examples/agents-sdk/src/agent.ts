import { Agent, routeAgentRequest } from 'agents'

interface Env {
  ToolAgent: DurableObjectNamespace<ToolAgent>
  HeadlessToolAgent: DurableObjectNamespace<HeadlessToolAgent>
  /** Where toolroute serves the tools (its /mcp is the MCP server). */
  TOOLROUTE_URL: string
}

/** What the agent's user would answer to a tool's question; a real agent asks them (a chat, a push). */
type Answer = { approved: boolean; reason?: string }

/**
 * An agent that reaches toolroute's tools over MCP. A tool that needs approval asks over MCP
 * elicitation (an approve / decline form); the agent's form handler answers it, and toolroute
 * approves (or declines) the tool's run: the tool executes once, after the answer.
 */
export class ToolAgent extends Agent<Env> {
  private answer: Answer = { approved: false, reason: 'nobody answered' }
  private asked: string[] = []
  /** The call `start` makes and `abort` stops: its controller, and how it ended. */
  private running?: { abort: AbortController; ended: Promise<string> }

  // #region agent
  onStart() {
    this.mcp.configureElicitationHandlers({
      form: async (request) => {
        this.asked.push(request.params.message)
        return { action: 'accept', content: { ...this.answer } }
      },
    })
  }

  async onRequest(request: Request): Promise<Response> {
    const action = new URL(request.url).pathname.split('/').at(-1)
    if (action === 'connect') {
      // A token makes the agent a principal of toolroute's: its runs are its own (listed, read by it).
      const { token } = request.headers.get('content-type') ? ((await request.json()) as { token?: string }) : {}
      const transport = token ? { transport: { headers: { authorization: `Bearer ${token}` } } } : {}
      const { id, state } = await this.addMcpServer('toolroute', new URL('/mcp', this.env.TOOLROUTE_URL).href, transport)
      const connection = this.mcp.mcpConnections[id]
      return Response.json({
        id,
        state,
        protocolVersion: connection?.protocolVersion,
        sessionId: connection?.sessionId,
        tools: this.mcp.listTools().map((tool) => tool.name),
      })
    }
    if (action === 'call') {
      const { name, arguments: args, answer } = (await request.json()) as { name: string; arguments: Record<string, unknown>; answer?: Answer }
      if (answer) this.answer = answer
      this.asked = []
      const [server] = this.mcp.listServers()
      if (!server) return Response.json({ error: 'connect first' }, { status: 409 })
      const result = await this.mcp.callTool({ serverId: server.id, name, arguments: args })
      return Response.json({ result, asked: this.asked })
    }
    // #endregion
    // Cancelling: a call made with an AbortSignal, aborted while it runs (the user stopped it). Under
    // 2026-07-28 the abort closes the call's HTTP request, and toolroute cancels the call's run.
    // `start` answers when the call ends: an agent's outbound fetch is cancellable only while the
    // request (or other event) that started it is still going.
    if (action === 'start') {
      const { name, arguments: args } = (await request.json()) as { name: string; arguments: Record<string, unknown> }
      const [server] = this.mcp.listServers()
      if (!server) return Response.json({ error: 'connect first' }, { status: 409 })
      const abort = new AbortController()
      const call = this.mcp.callTool({ serverId: server.id, name, arguments: args }, { signal: abort.signal })
      this.running = { abort, ended: call.then(() => 'completed', (error: unknown) => `rejected: ${error instanceof Error ? error.message : String(error)}`) }
      return Response.json({ call: await this.running.ended })
    }
    if (action === 'abort') {
      if (!this.running) return Response.json({ error: 'start first' }, { status: 409 })
      this.running.abort.abort(new Error('stopped by the user'))
      return Response.json({ call: await this.running.ended })
    }
    return new Response('Not found', { status: 404 })
  }
}

/**
 * An agent with no way to ask its user (no elicitation handler): it advertises no elicitation, so
 * toolroute answers an approval tool with an `isError` result naming the run, for someone to
 * approve over HTTP (`POST /runs/:runId/approve`), once.
 */
export class HeadlessToolAgent extends ToolAgent {
  onStart() {}
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // /agents/tool-agent/<name>/<action>: the agent named <name>.
    return (await routeAgentRequest(request, env)) ?? new Response('Not found', { status: 404 })
  },
}
