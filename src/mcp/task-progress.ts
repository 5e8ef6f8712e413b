import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server'
import type { RunHost } from '../runs/run-host.ts'
import { settledStatuses, type RunRecord } from '../runs/run-record.ts'
import { createProgressSender, type ProgressNotification } from './create-progress-sender.ts'
import { tapRunEvents } from './tap-run-events.ts'

/** Whether a `tasks/result` of `run` sends progress: its call carried a token, and it has not settled (the MCP spec's rule). */
const sendsProgress = (run: RunRecord): run is RunRecord & { progressToken: string | number } =>
  run.progressToken !== undefined && !settledStatuses.includes(run.status)

interface TaskState {
  /** The last event read: a later `tasks/result` sends what follows it. */
  after: number
  /** The notifications of the `tasks/result` reading the run now. */
  send: (notification: ProgressNotification) => Promise<void>
  progress: ReturnType<typeof createProgressSender>
}

/**
 * SPEC §5 "Progress" for a task (2025-11-25): what its run streams goes out under its call's token on
 * `tasks/result` (the tap is the host it reads through), earlier values first. A session's server goes
 * on counting across `tasks/result`s; a stateless one starts over.
 */
export function createTaskProgress(): (run: RunRecord, host: RunHost, send: TaskState['send']) => RunHost {
  const tasks = new Map<string, TaskState>()
  return (run, host, send) => {
    if (!sendsProgress(run)) {
      tasks.delete(run.runId)
      return host
    }
    let task = tasks.get(run.runId)
    if (!task) {
      const meta = { [RELATED_TASK_META_KEY]: { taskId: run.runId } }
      const state: TaskState = { after: 0, send, progress: () => {} }
      state.progress = createProgressSender((notification) => state.send(notification), run.progressToken, meta)
      tasks.set(run.runId, (task = state))
    }
    task.send = send
    return tapRunEvents(host, (event, seq) => {
      if (seq <= task.after) return
      task.after = seq
      task.progress(event)
    })
  }
}

/** `sendsProgress` of a task by id (false when it cannot be read): a stateless server then answers as SSE. */
export async function taskSendsProgress(runs: RunHost, taskId: string, principal: string | null): Promise<boolean> {
  return runs.get(taskId, { principal }).then(({ run }) => sendsProgress(run), () => false)
}
