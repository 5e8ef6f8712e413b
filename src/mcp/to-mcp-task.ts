import type { Task } from '@modelcontextprotocol/server'
import type { RunStatus } from '../protocol/call-result.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { runRoute } from './mcp-tool-result.ts'

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

/**
 * A background run as an MCP task (2025-11-25), the task id the run id. `ttl` is how long a waiting
 * run waits, `null` while it runs: the run store's retention, not `task.ttl`, keeps a settled one.
 */
export function toMcpTask(run: RunRecord, basePath: string): Task {
  const status = taskStatusOf(run)
  const message =
    run.status === 'approval-required'
      ? `Waiting for approval: tasks/result asks for it, or POST ${runRoute(basePath, run.runId, 'approve')}`
      : run.status === 'suspended'
        ? `Suspended, waiting for input: tasks/result asks for it, or POST ${runRoute(basePath, run.runId, 'resume')}`
        : run.status === 'declined'
          ? `Declined${run.reason ? `: ${run.reason}` : ''}`
          : run.status === 'expired'
            ? 'The run expired before anyone answered'
            : run.error?.message
  return {
    taskId: run.runId,
    status,
    ttl: run.expiresAt ? Math.max(0, Date.parse(run.expiresAt) - Date.parse(run.createdAt)) : null,
    createdAt: run.createdAt,
    lastUpdatedAt: run.updatedAt,
    ...(status === 'working' || status === 'input_required' ? { pollInterval: taskPollIntervalMs } : {}),
    ...(message !== undefined ? { statusMessage: message } : {}),
  }
}
