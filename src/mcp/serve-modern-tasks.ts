import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  type ServerContext,
  type Server,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunHost, RunSegment } from '../runs/run-host.ts'
import { settledStatuses, type RunRecord } from '../runs/run-record.ts'
import { hasTool } from '../manifest/load-tool.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import { readCaller } from './mcp-caller.ts'
import { answerPendingQuestions } from './answer-pending-questions.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { questionKeyOf, tasksExtensionId, toDetailedModernTask, toModernTask, type ModernTask } from './to-modern-task.ts'

/** Whether a request's `_meta` envelope declares the tasks extension among its client capabilities. */
export function declaresTasks(meta: unknown): boolean {
  const capabilities = (meta as Record<string, unknown> | null | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined
  const extension = capabilities?.extensions?.[tasksExtensionId]
  return typeof extension === 'object' && extension !== null
}

/** The same, read from a request body (`params._meta`) before the SDK has parsed it. */
export function bodyDeclaresTasks(body: unknown): boolean {
  return declaresTasks((body as { params?: { _meta?: unknown } } | null)?.params?._meta)
}

/** Whether the request a handler serves declared the extension. */
export function requestDeclaresTasks(ctx: ServerContext): boolean {
  return declaresTasks(ctx.mcpReq.envelope)
}

/** The error of SEP-2575 for a request that needs a capability its client did not declare. */
export function tasksRequired(what: string): ProtocolError {
  return new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [tasksExtensionId]: {} } } }, `${what} needs the ${tasksExtensionId} extension: declare it in the request's client capabilities`)
}

/**
 * The refusal of a call of a tool whose calls must be tasks (`mcp.taskSupport: 'required'`) from a
 * client that does not declare the extension, before anything runs; `undefined` for any other call.
 */
export function taskRequiredRefusal(tool: AnyTool, ctx: ServerContext): ProtocolError | undefined {
  return tool.mcp?.taskSupport === 'required' && !requestDeclaresTasks(ctx) ? tasksRequired(`A call of ${tool.id}`) : undefined
}

/** A `tools/call` answered with a task (SEP-2663 `CreateTaskResult`): flat, no result, no question. */
export function createTaskResult(run: RunRecord, basePath: string): ModernTask & { resultType: 'task' } {
  return { ...toModernTask(run, basePath), resultType: 'task' }
}

interface TaskParams {
  taskId: string
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The params of `tasks/get`, `tasks/update` and `tasks/cancel`: a `taskId`, checked by hand (the
 * SDK lifts `tasks/update`'s `inputResponses` out of the params, into `ctx.mcpReq`).
 */
const taskParams: StandardSchemaV1<unknown, TaskParams> = {
  '~standard': {
    version: 1,
    vendor: 'toolroute',
    validate(value) {
      const taskId = isObject(value) ? value.taskId : undefined
      return typeof taskId === 'string' ? { value: { taskId } } : { issues: [{ message: 'taskId must be a string', path: ['taskId'] }] }
    },
  },
}

/** An answer to a form question, or `undefined` for anything that is not one. */
function elicitAnswerOf(value: unknown): ElicitResult | undefined {
  if (!isObject(value) || (value.action !== 'accept' && value.action !== 'decline' && value.action !== 'cancel')) return undefined
  return { action: value.action, ...(isObject(value.content) ? { content: value.content as ElicitResult['content'] } : {}) }
}

/**
 * The tasks extension under 2026-07-28 (SEP-2663) over the app's run host, as `serveMcpTasks`
 * does for 2025-11-25: a task is a background run, its id the run id, and it answers only the
 * principal that started it (another principal's task is not found). `tasks/get` inlines the
 * question, result or failure; `tasks/update` answers the question (the run's approve, decline or
 * resume: the same compare-and-set as HTTP, so the tool runs once); `tasks/cancel` is the run's
 * cancel. A request whose client did not declare the extension is refused (-32021), and only a
 * declaring client is told of it in `server/discover`. There is no `tasks/list` or `tasks/result`
 * in this generation: they answer -32601 as any unknown method.
 */
export function serveModernTasks(server: Server, deps: McpServerDeps & { defer: (work: Promise<unknown>) => void }, declared: boolean): void {
  if (declared) server.registerCapabilities({ extensions: { [tasksExtensionId]: {} } })

  const open = async (method: string, params: TaskParams, ctx: ServerContext): Promise<{ runs: RunHost; run: RunRecord; principal: string | null }> => {
    if (!requestDeclaresTasks(ctx)) throw tasksRequired(method)
    const { principal } = readCaller(ctx.http?.req?.headers)
    const runs = deps.runs()
    try {
      const { run } = await runs.get(params.taskId, { principal })
      if (!run.background || !hasTool(deps.tools, run.toolId)) throw new ToolrouteError('RUN_NOT_FOUND', '')
      return { runs, run, principal }
    } catch (error) {
      if (ToolrouteError.isInstance(error) && error.code === 'RUN_NOT_FOUND') throw new ProtocolError(-32602, `Task not found: ${params.taskId}`)
      throw error
    }
  }

  server.setRequestHandler('tasks/get', { params: taskParams }, async (params, ctx) => {
    const { run } = await open('tasks/get', params, ctx)
    return (await toDetailedModernTask(deps.tools, run, deps.basePath)) as never
  })

  // Answers the question the task waits on and acknowledges at once: what the answer leads to is
  // read with the next tasks/get. Keys that name no current question are ignored (a stale or
  // repeated answer); an answer the run refuses (a resume failing `resumeSchema`) is -32602, and
  // the question stays, so the requester may answer it again.
  server.setRequestHandler('tasks/update', { params: taskParams }, async (params, ctx) => {
    const { runs, run, principal } = await open('tasks/update', params, ctx)
    const responses = ctx.mcpReq.inputResponses as Record<string, unknown> | undefined
    if (!isObject(responses)) throw new ProtocolError(-32602, 'Invalid params for tasks/update: inputResponses must be an object')
    if (run.status === 'running') return (await answerStep(runs, run, principal, responses)) as never
    const key = questionKeyOf(run)
    const answer = key !== undefined && Object.hasOwn(responses, key) ? elicitAnswerOf(responses[key]) : undefined
    if (!answer || answer.action === 'cancel') return {} as never
    try {
      if (run.status === 'approval-required') {
        // A background run's approve queues its execution and answers at once; nothing to read.
        if (answer.action === 'accept' && answer.content?.approved === true) await runs.approve(run.runId, { principal, ...(run.approvalId ? { approvalId: run.approvalId } : {}) })
        else await runs.decline(run.runId, { principal, ...(typeof answer.content?.reason === 'string' && answer.content.reason.trim() !== '' ? { reason: answer.content.reason } : {}) })
      } else if (answer.action === 'decline') {
        await runs.cancel(run.runId, { principal })
      } else {
        deps.defer(drain(await runs.resume(run.runId, { principal, resumeData: answer.content ?? {} })))
      }
    } catch (error) {
      if (!ToolrouteError.isInstance(error)) throw error
      // Answered meanwhile (over HTTP, by another request): the answer is stale, as an unknown key.
      if (error.code === 'RUN_STATE_CONFLICT') return {} as never
      throw new ProtocolError(-32602, `The answer to ${key} was not accepted: ${error.message}`)
    }
    return {} as never
  })

  // The run's cancel (the same compare-and-set as POST /runs/:runId/cancel); a task already
  // settled acknowledges the same way, as SEP-2663 asks.
  server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params, ctx) => {
    const { runs, run, principal } = await open('tasks/cancel', params, ctx)
    if (settledStatuses.includes(run.status)) return {} as never
    try {
      await runs.cancel(run.runId, { principal })
    } catch (error) {
      if (!ToolrouteError.isInstance(error) || error.code !== 'RUN_STATE_CONFLICT') throw error
    }
    return {} as never
  })
}

/**
 * Answers what a running step asked mid-execute: each key naming one of its pending questions
 * goes to the run, which hands it to the step; the others are ignored (answered before, or never
 * asked), and the task stays `input_required` until every question has its answer.
 */
async function answerStep(runs: RunHost, run: RunRecord, principal: string | null, responses: Record<string, unknown>): Promise<Record<string, never>> {
  const answered = await answerPendingQuestions(runs, run, principal, (key) => (Object.hasOwn(responses, key) ? elicitAnswerOf(responses[key]) : undefined))
  if (answered === 'unanswerable') throw new ProtocolError(-32603, 'This server\'s run host cannot answer questions asked mid-execute')
  return {}
}

/** Reads a resumed step to its end past the request that answered it (a remote host streams it; nobody else reads it). */
async function drain(segment: RunSegment): Promise<void> {
  try {
    for await (const _ of segment.events);
    await segment.settled
  } catch {
    // The run records its own failure; this only keeps the step's stream open.
  }
}
