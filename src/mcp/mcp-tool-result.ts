import type { CallToolResult } from '@modelcontextprotocol/server'
import { isJson, outputNotJsonMessage, ToolrouteError } from '../errors/toolroute-error.ts'
import { callJson } from '../runtime/call-json.ts'
import type { ToolModelOutput } from '../protocol/model-output.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { sessionPrincipalPrefix } from '../caller/principal-of.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { toMcpContent } from './to-mcp-content.ts'
import { shown } from './waiting-run-questions.ts'

/** `_meta` keys of toolroute's results: the run behind a result, and the spec error code of a failure. */
const runMetaKey = 'toolroute/run'
const errorMetaKey = 'toolroute/error'
/** A run's public ids and status under `runMetaKey`: named, so a call's own ids (its span's, SPEC §17) never ride along. */
const runMeta = ({ runId, toolCallId, traceId }: RunIds & { traceId?: string }, status: string) => ({ runId, toolCallId, ...(traceId !== undefined && { traceId }), status })

type RunIds = { runId: string; toolCallId: string }

const isErrorResult = (text: string, meta: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text }], isError: true, _meta: meta })

/**
 * A completed call: `structuredContent` is the output, `content` the model output as MCP blocks. An
 * output that is not JSON fails the call as over HTTP (the transport would otherwise throw mid-answer).
 */
export function completedResult(ids: RunIds, output: unknown, modelOutput: ToolModelOutput): CallToolResult {
  // MCP's structured content is a JSON object; any other output reaches the client as content only.
  const structured = typeof output === 'object' && output !== null && !Array.isArray(output)
  let content
  try {
    content = structured && !isJson(output) ? undefined : toMcpContent(modelOutput)
  } catch {}
  if (!content) return errorResult(new ToolrouteError('EXECUTION_FAILED', outputNotJsonMessage), ids)
  return { content, ...(structured ? { structuredContent: output as Record<string, unknown> } : {}), _meta: { [runMetaKey]: runMeta(ids, 'completed') } }
}

/** A failure as an `isError` result the model reads (no `structuredContent`: a client would check it against the output schema). */
export function errorResult(error: ToolrouteError, ids?: RunIds, status = 'failed'): CallToolResult {
  return isErrorResult(`${error.code}: ${error.message}`, { [errorMetaKey]: error.toJSON().error, ...(ids ? { [runMetaKey]: runMeta(ids, status) } : {}) })
}

/** For a run an MCP session owns, how to reach it over HTTP: its routes answer only a request naming the session (principal-of.ts). */
export function sessionNote(run: RunRecord): string {
  const session = run.principal?.startsWith(sessionPrincipalPrefix) ? run.principal.slice(sessionPrincipalPrefix.length) : undefined
  return session ? ` The run belongs to this MCP session: send the header Mcp-Session-Id: ${session} with each request.` : ''
}

export function runRoute(basePath: string, runId: string, action?: string): string {
  const base = basePath === '/' ? '' : basePath.replace(/\/+$/, '')
  return `${base}/runs/${runId}${action ? `/${action}` : ''}`
}

/** A run waiting for a human who could not be asked through the client: an `isError` result naming the run and the HTTP routes that finish it. The run stays, durable, until then or until it expires. */
export async function waitingResult(tool: AnyTool, run: RunRecord, basePath: string): Promise<CallToolResult> {
  const route = (action?: string) => runRoute(basePath, run.runId, action)
  const answer = (text: string, meta: Record<string, unknown>) =>
    isErrorResult(`${text}${sessionNote(run)}`, { [runMetaKey]: { runId: run.runId, toolCallId: run.toolCallId, status: run.status, ...meta } })
  if (run.status === 'running') {
    const text = `${tool.id} goes on in the background as run ${run.runId}: follow it with GET ${route('events')}; its state and output: GET ${route()}.`
    return answer(text, { routes: { events: route('events'), run: route() } })
  }
  if (run.status === 'approval-required') {
    const text =
      `${tool.id} needs approval before it runs. Run ${run.runId} is waiting: approve it with POST ${route('approve')} ` +
      `(body {"approvalId":"${run.approvalId}"} optional) or decline it with POST ${route('decline')} (body {"reason"} optional). ` +
      `Its state: GET ${route()}.`
    return answer(text, { approvalId: run.approvalId, routes: { approve: route('approve'), decline: route('decline'), run: route() } })
  }
  const resumeSchema = tool.schemas.resume?.jsonSchema
  const text =
    `${tool.id} is suspended and waiting for input: ${JSON.stringify((await shown(tool, run, 'suspend')) ?? null)}. Run ${run.runId} is waiting: ` +
    `resume it with POST ${route('resume')} and body {"resumeData": ...}${resumeSchema ? ` matching ${JSON.stringify(resumeSchema)}` : ''}, ` +
    `or cancel it with POST ${route('cancel')}. Its state: GET ${route()}.`
  return answer(text, { routes: { resume: route('resume'), cancel: route('cancel'), run: route() } })
}

/** The result for a run that has settled (after an approval or a resume). */
export async function settledResult(run: RunRecord): Promise<CallToolResult> {
  const ids = { runId: run.runId, toolCallId: run.toolCallId }
  if (run.status === 'declined') {
    const text = `The user declined to run ${run.toolId}${run.reason ? `: ${run.reason}` : ''}. It did not run.`
    return isErrorResult(text, { [runMetaKey]: { ...ids, status: 'declined', ...(run.reason !== undefined ? { reason: run.reason } : {}) } })
  }
  if (run.status === 'cancelled') return isErrorResult(`Run ${run.runId} of ${run.toolId} was cancelled.`, { [runMetaKey]: { ...ids, status: 'cancelled' } })
  // Completed, failed or expired as its JSON answers it (`callJson`: the model output's default, a stored error rebuilt).
  const json = callJson(ids, run, undefined)
  if (!json.ok) return errorResult(json.error, ids, run.status)
  if (json.body.status === 'completed') return completedResult(ids, json.body.output, json.body.modelOutput)
  return errorResult(new ToolrouteError('RUN_STATE_CONFLICT', `Run ${run.runId} is ${run.status}`), ids, run.status)
}
