import { ProtocolError, ProtocolErrorCode, type Task } from '@modelcontextprotocol/server'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { hasTool } from '../manifest/load-tool.ts'
import type { RunStatus } from '../protocol/call-result.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { runRoute, sessionNote } from './mcp-tool-result.ts'

/** How often a client should poll `tasks/get` (the spec's `pollInterval`, a hint). */
export const taskPollIntervalMs = 1000

const taskStatuses: Partial<Record<RunStatus, Task['status']>> = {
  running: 'working',
  'approval-required': 'input_required',
  suspended: 'input_required',
  completed: 'completed',
  cancelled: 'cancelled',
}

/** A run's status as a task's: a run waiting for a person is `input_required`, and a declined or expired one has `failed`. */
export const taskStatusOf = (run: RunRecord): Task['status'] => taskStatuses[run.status] ?? 'failed'

/** Whether a run is a task: a background run of one of the app's tools (the task id is the run id). */
export const isTask = (tools: ReadonlyMap<string, AnyTool>, run: RunRecord): boolean => run.background === true && hasTool(tools, run.toolId)

/** The task `taskId` as its principal may read it, in either era; any other id is `Task not found` (-32602). */
export async function findTask(runs: RunHost, tools: ReadonlyMap<string, AnyTool>, taskId: string, principal: string | null): Promise<RunRecord> {
  const found = await runs.get(taskId, { principal }).catch((error: unknown) => {
    if (!ToolrouteError.isInstance(error) || error.code !== 'RUN_NOT_FOUND') throw error
  })
  if (found && isTask(tools, found.run)) return found.run
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`)
}

/** How long a waiting run waits, `null` while it runs (the store's retention, not the ttl, keeps a settled one). */
export const taskTtlMs = (run: RunRecord): number | null => (run.expiresAt ? Math.max(0, Date.parse(run.expiresAt) - Date.parse(run.createdAt)) : null)

/** A waiting run's status message in either era: how to answer it (`how`), or the HTTP route that does. */
export function waitingMessage(run: RunRecord, basePath: string, how: string): string | undefined {
  if (run.status === 'approval-required') return `Waiting for approval: ${how}, or POST ${runRoute(basePath, run.runId, 'approve')}.${sessionNote(run)}`
  if (run.status === 'suspended') return `Suspended, waiting for input: ${how}, or POST ${runRoute(basePath, run.runId, 'resume')}.${sessionNote(run)}`
  return undefined
}

/** A background run as an MCP task (2025-11-25). */
export function toMcpTask(run: RunRecord, basePath: string): Task {
  const status = taskStatusOf(run)
  const message =
    waitingMessage(run, basePath, 'tasks/result asks for it') ??
    (run.status === 'declined' ? `Declined${run.reason ? `: ${run.reason}` : ''}` : run.status === 'expired' ? 'The run expired before anyone answered' : run.error?.message)
  return {
    taskId: run.runId,
    status,
    ttl: taskTtlMs(run),
    createdAt: run.createdAt,
    lastUpdatedAt: run.updatedAt,
    ...(status === 'working' || status === 'input_required' ? { pollInterval: taskPollIntervalMs } : {}),
    ...(message !== undefined ? { statusMessage: message } : {}),
  }
}
