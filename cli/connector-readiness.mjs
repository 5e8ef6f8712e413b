/**
 * Where a directory of remote connectors (Claude's, ChatGPT's) would refuse a tool (SPEC §15), one
 * line per tool naming it: an MCP name over 64 characters always (clients cut or refuse it), and, for
 * an app that signs agents in (`oauth`), no `mcp.annotations.title` or neither `readOnlyHint` nor
 * `destructiveHint`. The name is the one `tools/list` shows (src/protocol/mcp-tool-name.ts's rule).
 */
export function connectorReadiness(routes, config) {
  const lines = []
  for (const { id, file, value } of routes) {
    const name = /^[A-Za-z0-9_.-]{1,128}$/.test(id) ? id : id.replace(/[^A-Za-z0-9_.-]/gu, '_')
    const annotations = value.mcp?.annotations ?? {}
    const problems = [
      ...(name.length > 64 ? [`its MCP name is ${name.length} characters (connectors take at most 64)`] : []),
      ...(config.oauth && typeof annotations.title !== 'string' ? ['it has no mcp.annotations.title'] : []),
      ...(config.oauth && typeof annotations.readOnlyHint !== 'boolean' && typeof annotations.destructiveHint !== 'boolean' ? ['it sets neither mcp.annotations.readOnlyHint nor destructiveHint'] : []),
    ]
    if (problems.length > 0) lines.push(`toolroute: tool ${JSON.stringify(id)} (tools/${file}) is not ready for a connector directory: ${problems.join('; ')} (docs/auth.md "Connector readiness")`)
  }
  return lines
}
