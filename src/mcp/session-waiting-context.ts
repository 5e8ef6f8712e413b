import type { Server, ServerContext } from '@modelcontextprotocol/server'
import { canAnswerForms } from './answers-forms.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ElicitRequestParams, ElicitResult } from '../tool/tool-execution-context.ts'
import type { WaitingRunContext } from './finish-waiting-run.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'

/**
 * How a 2025 request (a `tools/call`, a `tasks/result`) finishes a waiting run: questions go to
 * the client as elicitation when it declared forms. `relatedRequestId` sends them on this
 * request's own response stream: without it (as the context's own `elicitInput` sends them) the
 * SDK uses the standalone GET stream, which toolroute does not open, and the question is lost.
 */
export function sessionWaitingContext(server: Server, deps: McpServerDeps, ctx: ServerContext, tool: AnyTool, runs: RunHost, principal: string | null): WaitingRunContext {
  return {
    tool,
    runs,
    principal,
    basePath: deps.basePath,
    canElicit: canAnswerForms(server.getClientCapabilities()),
    elicit: (request: ElicitRequestParams): Promise<ElicitResult> =>
      server.elicitInput({ ...request, mode: 'form' } as never, { relatedRequestId: ctx.mcpReq.id, timeout: deps.elicitationTimeoutMs, signal: ctx.mcpReq.signal }) as Promise<ElicitResult>,
    signal: ctx.mcpReq.signal,
  }
}
