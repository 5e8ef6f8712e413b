// @ts-types="@modelcontextprotocol/sdk/server/index"
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool, ElicitRequestParams, ElicitResult } from '../tool/tool-types.ts'
import type { WaitingRunContext } from './finish-waiting-run.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'

/** The SDK's `extra` of a request handler (signal, ids, request info, sendRequest…). */
export type McpRequestExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1]

/**
 * How a 2025 request (a `tools/call`, a `tasks/result`) finishes a waiting run: questions go to
 * the client as elicitation when it declared forms. `relatedRequestId` sends them on this
 * request's own response stream: without it the SDK uses the standalone GET stream, and drops
 * the question when none is open.
 */
export function sessionWaitingContext(server: Server, deps: McpServerDeps, extra: McpRequestExtra, tool: AnyTool, runs: RunHost, principal: string | null): WaitingRunContext {
  return {
    tool,
    runs,
    principal,
    basePath: deps.basePath,
    canElicit: Boolean(server.getClientCapabilities()?.elicitation?.form),
    elicit: (request: ElicitRequestParams): Promise<ElicitResult> =>
      server.elicitInput({ ...request, mode: 'form' } as never, {
        relatedRequestId: extra.requestId,
        timeout: deps.elicitationTimeoutMs,
        signal: extra.signal,
      }) as Promise<ElicitResult>,
    signal: extra.signal,
  }
}
