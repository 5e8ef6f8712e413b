import type { Context } from 'hono'
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts'
import type { PlaygroundPageLoader } from '../playground/load-playground-page.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunLimits } from '../runs/run-limits.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { idempotentCall } from './idempotent-call.ts'
import type { ToolAppOptions } from './tool-app-options.ts'

/** What answers a call that has an `Idempotency-Key` (`idempotentCall`). */
export type IdempotentCall = typeof idempotentCall

/**
 * What serves `/mcp`, made once per app from its tools, options and runs (`createMcpEndpoint`, in
 * mcp/, is one): http/ knows MCP by this shape alone, so it imports no MCP code.
 */
export type McpHandlerFactory = (deps: {
  tools: ReadonlyMap<string, AnyTool>
  options: ToolAppOptions<any, any>
  runs: (c: Context) => RunHost
}) => (c: Context) => Response | Promise<Response>

/**
 * The features an app may leave out, passed to `createToolApp` by its composer beside the options
 * (`toolroute/server`'s `createToolApp` passes every one, the Deno adapter its own, a Worker's
 * generated entry only what the app uses): http/ imports none of them, so an app bundles only the
 * features it is given. The options say how a feature behaves; these say whether it exists.
 */
export interface ToolAppFeatures {
  /**
   * What keeps runs when the options give no `runs`, made from the app's tools on first use
   * (`toolroute/server`: in memory). Without either no run can exist: `/runs/:runId` answers
   * `RUN_NOT_FOUND` and a call that must store its run fails (SPEC §11).
   */
  runs?: (tools: ReadonlyMap<string, AnyTool>, options: { runLimits?: RunLimits }) => RunHost
  /**
   * Idempotent calls (SPEC §9): `call` answers a call that has an `Idempotency-Key`
   * (`idempotentCall`); `keys` is where keys live when the options' `idempotency` names no store
   * (`toolroute/server`: in memory). Without a store, or without this, a keyed call fails with
   * `EXECUTION_FAILED`, saying what to pass, unless the options say `idempotency: false`.
   */
  idempotency?: { call: IdempotentCall; keys?: () => IdempotencyStore }
  /** What renders the playground page (`loadPlaygroundPage`). Without it `GET /` answers `404 TOOL_NOT_FOUND`, saying why. */
  playground?: PlaygroundPageLoader
  /** What serves `/mcp` (`createMcpEndpoint`), unless the options say `mcp: false`. Without it `/mcp` is not served. */
  mcp?: McpHandlerFactory
}
