import type { AnyTool } from '../tool/tool-types.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { CallTracer } from '../runs/call-tracer.ts'

/** What an MCP server for a set of tools needs, wherever it lives (request, process, Durable Object). */
export interface McpServerDeps {
  tools: ReadonlyMap<string, AnyTool>
  /** Where runs that wait or run in the background are stored (the app's run host). */
  runs: () => RunHost
  storeRuns: 'stateful' | 'all'
  serverInfo: { name: string; version: string }
  /** The app's base path, for the HTTP routes named in results. */
  basePath: string
  /** How long a question to the user may wait for its answer. */
  elicitationTimeoutMs: number
  /** The mounted `tracing/`: a span per `tools/call` (SPEC §17). */
  tracer?: CallTracer
  /** The configured secret for 2026-07-28 question states (`mcp.requestStateKey`), if any. */
  requestStateKey?: string
}
