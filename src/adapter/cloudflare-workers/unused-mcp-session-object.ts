import { DurableObject } from 'cloudflare:workers'

/**
 * `McpSessionObject` in a Worker that does not serve `/mcp`: a project's wrangler.toml binds the
 * class whether or not MCP is on (`toolroute init` writes it, and a deploy refuses a bound class
 * the script does not export), so it exists without carrying the MCP SDK. Nothing reaches it
 * (the Worker has no `/mcp` route); an alarm left by sessions from when MCP was on clears what
 * they stored.
 */
export class UnusedMcpSessionObject extends DurableObject {
  async fetch(): Promise<Response> {
    return new Response(null, { status: 404 })
  }

  async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll()
  }
}
