import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  inputResponse,
  type ServerContext,
  type Server,
} from '@modelcontextprotocol/server'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { isObject, settledStatuses, type RunRecord } from '../runs/run-record.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import { readCaller } from './mcp-caller.ts'
import { traceparentOf } from '../protocol/traceparent.ts'
import { answerPendingQuestions, unlessConflict } from './answer-pending-questions.ts'
import { answerRun, drainStep } from './answer-waiting-run.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { questionKeyOf, tasksExtensionId, toDetailedModernTask, toModernTask } from './to-modern-task.ts'
import { findTask } from './to-mcp-task.ts'
import { taskParams } from './serve-mcp-tasks.ts'

/** Whether a request's `_meta` envelope declares the tasks extension among its client capabilities. */
export function declaresTasks(meta: unknown): boolean {
  const capabilities = (meta as Record<string, unknown> | null | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined
  const extension = capabilities?.extensions?.[tasksExtensionId]
  return typeof extension === 'object' && extension !== null
}

/** The error of SEP-2575 for a request that needs a capability its client did not declare. */
function tasksRequired(what: string): ProtocolError {
  const message = `${what} needs the ${tasksExtensionId} extension: declare it in the request's client capabilities`
  return new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [tasksExtensionId]: {} } } }, message)
}

/** The refusal, before anything runs, of a call of a `mcp.taskSupport: 'required'` tool from a client not declaring tasks. */
export function taskRequiredRefusal(tool: AnyTool, ctx: ServerContext): ProtocolError | undefined {
  return tool.mcp?.taskSupport === 'required' && !declaresTasks(ctx.mcpReq.envelope) ? tasksRequired(`A call of ${tool.id}`) : undefined
}

/** A `tools/call` answered with a task (SEP-2663 `CreateTaskResult`): flat, no result, no question. */
export function createTaskResult(run: RunRecord, basePath: string) {
  return { ...toModernTask(run, basePath), resultType: 'task' as const }
}

/**
 * The 2026-07-28 tasks extension (SEP-2663), as `serveMcpTasks` for 2025-11-25. A request not
 * declaring it is refused (-32021); `server/discover` names it only to a `body` that declares it.
 */
export function serveModernTasks(server: Server, deps: McpServerDeps & { defer: (work: Promise<unknown>) => void }, body: unknown): void {
  if (declaresTasks((body as { params?: { _meta?: unknown } } | null)?.params?._meta)) {
    server.registerCapabilities({ extensions: { [tasksExtensionId]: {} } })
  }

  const open = async (method: string, params: { taskId: string }, ctx: ServerContext) => {
    if (!declaresTasks(ctx.mcpReq.envelope)) throw tasksRequired(method)
    const { principal } = readCaller(ctx.http?.req?.headers)
    const runs = deps.runs()
    return { runs, run: await findTask(runs, deps.tools, params.taskId, principal), principal }
  }

  server.setRequestHandler('tasks/get', taskParams, async (params, ctx) => {
    const { run } = await open('tasks/get', params, ctx)
    return (await toDetailedModernTask(deps.tools, run, deps.basePath)) as never
  })

  // Acknowledged at once: what the answer leads to is read with the next tasks/get. Keys naming no
  // current question are ignored; an answer the run refuses is -32602, the question kept.
  server.setRequestHandler('tasks/update', taskParams, async (params, ctx) => {
    const { runs, run, principal } = await open('tasks/update', params, ctx)
    const responses = ctx.mcpReq.inputResponses
    if (!isObject(responses)) throw new ProtocolError(-32602, 'Invalid params for tasks/update: inputResponses must be an object')
    // Only an answer to a form counts: a sampling or roots response, or anything else, answers nothing.
    const read = (key: string): ElicitResult | undefined => {
      const view = inputResponse(responses, key)
      return view.kind === 'elicit' ? { action: view.action, ...(view.content ? { content: view.content } : {}) } : undefined
    }
    if (run.status === 'running') {
      if ((await answerPendingQuestions(runs, run, principal, read)) === 'unanswerable') {
        throw new ProtocolError(-32603, 'This server\'s run host cannot answer questions asked mid-execute')
      }
      return {} as never
    }
    const key = questionKeyOf(run)
    const answer = key !== undefined ? read(key) : undefined
    if (!answer || answer.action === 'cancel') return {} as never
    try {
      const step = await answerRun(runs, run, { principal, traceparent: traceparentOf((params as { _meta?: Record<string, unknown> })._meta) }, answer)
      // An approve only queues the execution; a resumed step is read past this request (a remote host streams it).
      if (run.status === 'suspended' && step && 'events' in step) deps.defer(drainStep(step).catch(() => {}))
    } catch (error) {
      if (!ToolrouteError.isInstance(error)) throw error
      // Answered meanwhile (over HTTP, by another request): the answer is stale, as an unknown key.
      if (error.code === 'RUN_STATE_CONFLICT') return {} as never
      throw new ProtocolError(-32602, `The answer to ${key} was not accepted: ${error.message}`)
    }
    return {} as never
  })

  // The run's cancel; a task already settled acknowledges the same way, as SEP-2663 asks.
  server.setRequestHandler('tasks/cancel', taskParams, async (params, ctx) => {
    const { runs, run, principal } = await open('tasks/cancel', params, ctx)
    if (settledStatuses.includes(run.status)) return {} as never
    await runs.cancel(run.runId, { principal }).catch(unlessConflict)
    return {} as never
  })
}
