import type { Context } from 'hono'
import { createMcpEndpoint, mcpEndpoint } from '../../mcp/create-mcp-endpoint.ts'
import { mcpServerDepsOf } from '../../mcp/create-mcp-server.ts'
import type { ToolAppOptions } from '../../http/tool-app-options.ts'
import type { ToolAppMcpOptions } from '../../mcp/mcp-app-options.ts'
import type { McpSessionHost } from '../../mcp/mcp-session-host.ts'
import type { RunHost } from '../../runs/run-host.ts'
import type { AnyTool } from '../../tool/tool-types.ts'
import { createMcpSessionObject } from './create-mcp-session-object.ts'
import { createDurableObjectMcpSessions } from './durable-object-mcp-sessions.ts'
import { perNamespace } from './per-namespace.ts'
import type { ObjectTracer } from '../../runs/call-tracer.ts'

/** What `createWorker` knows that MCP on Workers needs. */
export interface WorkerMcpContext extends Pick<ToolAppOptions, 'storeRuns' | 'server' | 'basePath'> {
  tools: ReadonlyMap<string, AnyTool>
  /** The run host, from the env alone (a session object has no request). */
  runs: (env: unknown) => RunHost
  /** The `TOOLROUTE_MCP` namespace of an env, if bound. */
  sessionNamespace: (env: unknown) => DurableObjectNamespace | undefined
  mcp: ToolAppMcpOptions
  mcpSessionTtlMs?: number
  /** A session object's tracer (`workerTracing.inObject`), when the config has `tracing`. */
  tracer?: ObjectTracer | undefined
}

/** The pieces of `/mcp` on Workers: the handler, where sessions live, and the session object class (none when stateless). */
export interface WorkerMcp {
  handler: typeof mcpEndpoint
  sessions: (c: Context) => McpSessionHost | undefined
  McpSessionObject?: ReturnType<typeof createMcpSessionObject>
}

/**
 * MCP for `createWorker`, passed in as `mcpServer` by the generated entry only when the config serves
 * `/mcp`, so a Worker with `mcp: false` bundles neither MCP SDK. Sessions go to the object named by
 * their id when `TOOLROUTE_MCP` is bound; stateless otherwise.
 */
export function workerMcpServer(context: WorkerMcpContext): Required<WorkerMcp> {
  const hostOf = perNamespace(createDurableObjectMcpSessions)
  return {
    // With the config's `sessions: 'memory'`, this isolate's own sessions, as in any app.
    handler: createMcpEndpoint,
    sessions: (c) => {
      const namespace = context.sessionNamespace(c.env)
      return namespace ? hostOf(namespace) : undefined
    },
    McpSessionObject: createMcpSessionObject({
      deps: (env, ctx) => mcpServerDepsOf(context.tools, context, context.mcp, () => context.runs(env), context.tracer?.(env, (work) => ctx.waitUntil(work))),
      sessionTtlMs: context.mcpSessionTtlMs,
    }),
  }
}

/**
 * Stateless MCP for `createWorker`, the generated entry's `mcpServer` when the wrangler config binds no
 * `TOOLROUTE_MCP`: every request answered in the isolate it reaches, as `workerMcpServer` does without
 * the binding, but bundling no session object (and no 2025 session transport).
 */
export function workerStatelessMcpServer(): WorkerMcp {
  return { handler: mcpEndpoint, sessions: () => undefined }
}
