import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, type Server, type ServerContext } from '@modelcontextprotocol/server'
import { z } from 'zod'
import type { RunHost } from '../runs/run-host.ts'
import { settledStatuses } from '../runs/run-record.ts'
import { askAndAnswer, finishWaitingRun, type WaitingRunContext } from './finish-waiting-run.ts'
import { followToEnd } from './follow-to-end.ts'
import { readCaller } from './mcp-caller.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { canAnswerForms } from './answers-forms.ts'
import { unlessConflict } from './answer-pending-questions.ts'
import { createTaskProgress } from './task-progress.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import { findTask, isTask, taskStatusOf, toMcpTask } from './to-mcp-task.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { toolOfRun } from '../manifest/load-tool.ts'
import { listTaskRuns } from './list-task-runs.ts'

/** The `tasks` capability of a 2025-11-25 server: tasks for `tools/call`, listed and cancellable. */
export const mcpTasksCapability = { list: {}, cancel: {}, requests: { tools: { call: {} } } }

// SDK v2 types the 2025-11-25 task methods but serves none: toolroute registers them, params checked here.
export const taskParams = { params: z.object({ taskId: z.string() }).loose() }
const listParams = { params: z.object({ cursor: z.string().optional() }).loose().optional() }

/** `tasks/*` (2025-11-25) over the run host, not the SDK's `TaskStore` (sessions, not principals): a task outlives its session. */
export function serveMcpTasks(server: Server, deps: McpServerDeps): void {
  // Per server, so per session: what each task's progress has sent (task-progress.ts).
  const progressTap = createTaskProgress()
  const callerOf = (ctx: ServerContext) => ({ principal: readCaller(ctx.http?.req?.headers).principal })
  const load = (runs: RunHost, taskId: string, ctx: ServerContext) => findTask(runs, deps.tools, taskId, callerOf(ctx).principal)

  // Asks on this request's stream (`relatedRequestId`: toolroute opens no standalone one), naming the task.
  const contextOf = async (run: RunRecord, runs: RunHost, ctx: ServerContext): Promise<WaitingRunContext> => ({
    tool: await toolOfRun(deps.tools, run),
    runs,
    principal: callerOf(ctx).principal,
    basePath: deps.basePath,
    canElicit: canAnswerForms(server.getClientCapabilities()),
    elicit: (request) => {
      const options = { relatedRequestId: ctx.mcpReq.id, timeout: deps.elicitationTimeoutMs, signal: ctx.mcpReq.signal }
      const _meta = { [RELATED_TASK_META_KEY]: { taskId: run.runId } }
      return server.elicitInput({ ...request, _meta, mode: 'form' } as never, options) as Promise<ElicitResult>
    },
    signal: ctx.mcpReq.signal,
  })

  // A requester polling only `tasks/get` (ext-tasks at 2025-11-25) is asked here, in a session (where its answer comes back).
  server.setRequestHandler('tasks/get', taskParams, async (params, ctx) => {
    const runs = deps.runs()
    const run = await load(runs, params.taskId, ctx)
    const context = ctx.sessionId !== undefined && taskStatusOf(run) === 'input_required' ? await contextOf(run, runs, ctx) : undefined
    const answered = context?.canElicit ? await askAndAnswer(context, run) : undefined
    return toMcpTask(answered ?? run, deps.basePath)
  })

  // Blocks until the run settles, asking as above; what the run streams meanwhile is progress (task-progress.ts).
  server.setRequestHandler('tasks/result', taskParams, async (params, ctx) => {
    const host = deps.runs()
    const run = await load(host, params.taskId, ctx)
    const runs = progressTap(run, host, (notification) => ctx.mcpReq.notify(notification as never))
    const context = await contextOf(run, runs, ctx)
    // Values streamed before this request first (a run that settled or waits replays and ends).
    const current = runs === host || run.status === 'running' ? run : await followToEnd(context, run)
    const result = await finishWaitingRun(context, current)
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: run.runId } } }
  })

  server.setRequestHandler('tasks/list', listParams, async (params, ctx) => {
    const runs = deps.runs()
    const page = await listTaskRuns(runs, callerOf(ctx), params?.cursor)
    const tasks = page.runs.filter((run) => isTask(deps.tools, run)).map((run) => toMcpTask(run, deps.basePath))
    return { tasks, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) }
  })

  server.setRequestHandler('tasks/cancel', taskParams, async (params, ctx) => {
    const runs = deps.runs()
    const run = await load(runs, params.taskId, ctx)
    if (settledStatuses.includes(run.status)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${toMcpTask(run, deps.basePath).status}`)
    const cancelled = await runs.cancel(run.runId, callerOf(ctx)).catch((error: unknown) => {
      unlessConflict(error)
      // Settled meanwhile (the run finished as the cancel arrived).
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, (error as Error).message)
    })
    return toMcpTask(cancelled, deps.basePath)
  })
}
