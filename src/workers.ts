/** `toolroute/workers`: serving tools from Cloudflare Workers, runs in Durable Objects. */
export { createWorker, defineConfig, runsBinding, mcpSessionsBinding } from './adapter/cloudflare-workers/create-worker.ts'
export type { ToolrouteConfig } from './adapter/cloudflare-workers/create-worker.ts'
export { createToolRunObject } from './adapter/cloudflare-workers/create-tool-run-object.ts'
export { createDurableObjectRunHost } from './adapter/cloudflare-workers/durable-object-run-host.ts'
export { createDurableObjectRunStore } from './store/durable-object/durable-object-run-store.ts'
export { createMcpSessionObject } from './adapter/cloudflare-workers/create-mcp-session-object.ts'
export { createDurableObjectMcpSessions } from './adapter/cloudflare-workers/durable-object-mcp-sessions.ts'
