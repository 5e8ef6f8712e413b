// The MCP session binding of test/workers/wrangler.toml.
declare namespace Cloudflare {
  interface Env {
    TOOLROUTE_MCP: DurableObjectNamespace
  }
}
