// @ts-types="@modelcontextprotocol/sdk/server/index"
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
} from '@modelcontextprotocol/sdk/types.js'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunHost } from '../runs/run-host.ts'
import { settledStatuses, type RunRecord } from '../runs/run-record.ts'
import { finishWaitingRun, followToEnd } from './finish-waiting-run.ts'
import { readCaller } from './mcp-caller.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { sessionWaitingContext, type McpRequestExtra } from './session-waiting-context.ts'
import type { TaskProgress } from './task-progress.ts'
import { toMcpTask } from './to-mcp-task.ts'
import { hasTool, toolOfRun } from '../tool/load-tool.ts'

/** The `tasks` capability of a 2025-11-25 server: tasks for `tools/call`, listed and cancellable. */
export const mcpTasksCapability = { list: {}, cancel: {}, requests: { tools: { call: {} } } }

const notFound = (taskId: string) => new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`)

/**
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` (MCP 2025-11-25) over the app's run
 * host rather than the SDK's `TaskStore`, which knows sessions, not principals: a task is a
 * background run, its id the run id, and it answers only the principal that started it (another
 * principal's task is not found, as over HTTP). Nothing lives in the server but how far each
 * task's progress has been sent: a task outlives the session, the process and a restart of the
 * Durable Object it runs in.
 */
export function serveMcpTasks(server: Server, deps: McpServerDeps, progress: TaskProgress): void {
  const callerOf = (extra: McpRequestExtra) => ({ principal: readCaller(extra.requestInfo?.headers).principal })
  const load = async (runs: RunHost, taskId: string, extra: McpRequestExtra): Promise<RunRecord> => {
    try {
      const { run } = await runs.get(taskId, callerOf(extra))
      if (!run.background || !hasTool(deps.tools, run.toolId)) throw notFound(taskId)
      return run
    } catch (error) {
      if (ToolrouteError.isInstance(error) && error.code === 'RUN_NOT_FOUND') throw notFound(taskId)
      throw error
    }
  }

  server.setRequestHandler(GetTaskRequestSchema, async (request, extra) => toMcpTask(await load(deps.runs(), request.params.taskId, extra), deps.basePath))

  // Blocks until the run settles; a run waiting for a person asks this request's client (2025
  // sessions with elicitation), else its result names the run and the HTTP route that answers it.
  // A task whose call carried a progress token gets what the run streams as progress meanwhile,
  // on this request (task-progress.ts).
  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
    const host = deps.runs()
    const run = await load(host, request.params.taskId, extra)
    const runs = progress.tap(run, host, (notification) => extra.sendNotification(notification as never))
    const { principal } = callerOf(extra)
    const context = sessionWaitingContext(server, deps, extra, await toolOfRun(deps.tools, run), runs, principal)
    // Values streamed before this request are sent first (a run that settled or waits replays and ends).
    const current = runs === host || run.status === 'running' ? run : await followToEnd(context, run)
    const result = await finishWaitingRun(context, current)
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: run.runId } } }
  })

  server.setRequestHandler(ListTasksRequestSchema, async (request, extra) => {
    const runs = deps.runs()
    if (!runs.list) return { tasks: [] }
    const page = await runs.list(callerOf(extra), request.params?.cursor !== undefined ? { cursor: request.params.cursor } : {})
    const tasks = page.runs.filter((run) => run.background && hasTool(deps.tools, run.toolId)).map((run) => toMcpTask(run, deps.basePath))
    return { tasks, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) }
  })

  // The run's cancel (the same compare-and-set as POST /runs/:runId/cancel): a running attempt is aborted.
  server.setRequestHandler(CancelTaskRequestSchema, async (request, extra) => {
    const runs = deps.runs()
    const run = await load(runs, request.params.taskId, extra)
    if (settledStatuses.includes(run.status)) throw new McpError(ErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${toMcpTask(run, deps.basePath).status}`)
    try {
      return toMcpTask(await runs.cancel(run.runId, callerOf(extra)), deps.basePath)
    } catch (error) {
      // Settled meanwhile (the run finished as the cancel arrived).
      if (ToolrouteError.isInstance(error) && error.code === 'RUN_STATE_CONFLICT') throw new McpError(ErrorCode.InvalidParams, error.message)
      throw error
    }
  })
}
