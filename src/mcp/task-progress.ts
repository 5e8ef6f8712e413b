import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server'
import type { RunHost } from '../runs/run-host.ts'
import { settledStatuses, type RunRecord } from '../runs/run-record.ts'
import { createProgressSender, type ProgressNotification } from './create-progress-sender.ts'
import { tapRunEvents } from './tap-run-events.ts'

/**
 * SPEC §5 "Progress" for a task (MCP 2025-11-25). A task-augmented `tools/call` that carries a
 * `progressToken` answers with the task at once, but its token stays the task's until the task
 * settles (the MCP spec's rule for tasks), so the run keeps it (`RunRecord.progressToken`). What
 * the run streams (SPEC §8) is sent under it on `tasks/result`, the request that stays open while
 * the run goes on, values streamed before that request first, and none once the task has settled
 * (progress ends with the task, as the MCP spec asks). A session's server remembers what
 * it has sent, so each value goes out once and the count goes on across its `tasks/result`s; a
 * stateless server starts each `tasks/result` from the run's first value.
 */
export interface TaskProgress {
  /**
   * The run host a `tasks/result` of `run` reads through: each streamed value it reads that this
   * server has not sent is sent with `send` (that request's own notifications). `host` as it is
   * for a task whose call carried no token.
   */
  tap(run: RunRecord, host: RunHost, send: (notification: ProgressNotification) => Promise<void>): RunHost
}

/** Whether a `tasks/result` of `run` sends progress: its call carried a token, and it has not settled (progress ends with the task, the MCP spec's rule). */
const sendsProgress = (run: RunRecord): run is RunRecord & { progressToken: string | number } =>
  run.progressToken !== undefined && !settledStatuses.includes(run.status)

interface TaskState {
  /** The last event read: a later `tasks/result` sends what follows it. */
  after: number
  /** The notifications of the `tasks/result` reading the run now. */
  send: (notification: ProgressNotification) => Promise<void>
  progress: ReturnType<typeof createProgressSender>
}

export function createTaskProgress(): TaskProgress {
  const tasks = new Map<string, TaskState>()
  const start = (run: RunRecord & { progressToken: string | number }, send: TaskState['send']): TaskState => {
    const task: TaskState = {
      after: 0,
      send,
      // Sent on whichever `tasks/result` reads the run now; the count goes on across them.
      progress: createProgressSender((notification) => task.send(notification), run.progressToken, { [RELATED_TASK_META_KEY]: { taskId: run.runId } }),
    }
    tasks.set(run.runId, task)
    return task
  }
  return {
    tap(run, host, send) {
      if (!sendsProgress(run)) {
        // A settled task's result comes alone; what its progress had sent is forgotten with it.
        tasks.delete(run.runId)
        return host
      }
      const task = tasks.get(run.runId) ?? start(run, send)
      task.send = send
      return tapRunEvents(host, (event, seq) => {
        if (seq <= task.after) return
        task.after = seq
        task.progress(event)
      })
    },
  }
}

/**
 * Whether a `tasks/result` of `taskId` will send progress: its call carried a token and it has not
 * settled. A stateless server answers such a request as an SSE stream (a JSON answer has room for
 * the result only), any other as JSON; a task it cannot read is answered (refused) as JSON.
 */
export async function taskSendsProgress(runs: RunHost, taskId: string, principal: string | null): Promise<boolean> {
  try {
    return sendsProgress((await runs.get(taskId, { principal })).run)
  } catch {
    return false
  }
}
