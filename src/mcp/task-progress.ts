// @ts-types="@modelcontextprotocol/sdk/types"
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js'
import type { RunHost } from '../runs/run-host.ts'
import { createProgressSender, type ProgressNotification } from './create-progress-sender.ts'
import { tapRunEvents } from './tap-run-events.ts'

/**
 * SPEC §5 "Progress" for a task (MCP 2025-11-25). A task-augmented `tools/call` that carries a
 * `progressToken` answers with the task at once, but its token stays the task's until the task
 * settles (the MCP spec's rule for tasks). What the run streams from then on (SPEC §8) is sent as
 * that token's progress on the session's `tasks/result` request, the one request left open while
 * the run goes on: values streamed before it are sent when it arrives, each value once, counted
 * up from one per task. Kept per session server: a session that lost its memory (an evicted
 * Durable Object) or a stateless request sends none, which progress allows (it is a MAY).
 */
export interface TaskProgress {
  /** Keeps the token of a task whose `tools/call` carried one; `after` is the last event of its first step. */
  start(taskId: string, progressToken: string | number, after: number): void
  /**
   * The run host a `tasks/result` of the task reads through: each event it reads that the task's
   * progress has not sent yet is sent with `send` (that request's own notifications). `host` as it
   * is for a task without a token.
   */
  tap(taskId: string, host: RunHost, send: (notification: ProgressNotification) => Promise<void>): RunHost
  /** Forgets a settled task: its progress ends with it. */
  end(taskId: string): void
}

interface TaskState {
  /** The last event sent (or not streamed output): the next `tasks/result` sends what follows it. */
  after: number
  /** The notifications of the `tasks/result` reading the run now. */
  send?: (notification: ProgressNotification) => Promise<void>
  progress: ReturnType<typeof createProgressSender>
}

export function createTaskProgress(): TaskProgress {
  const tasks = new Map<string, TaskState>()
  return {
    start(taskId, progressToken, after) {
      const task: TaskState = {
        after,
        // Sent on whichever `tasks/result` reads the run now; the count goes on across them.
        progress: createProgressSender((notification) => task.send?.(notification) ?? Promise.resolve(), progressToken, { [RELATED_TASK_META_KEY]: { taskId } }),
      }
      tasks.set(taskId, task)
    },
    tap(taskId, host, send) {
      const task = tasks.get(taskId)
      if (!task) return host
      task.send = send
      return tapRunEvents(host, (event, seq) => {
        if (seq <= task.after) return
        task.after = seq
        task.progress(event)
      })
    },
    end(taskId) {
      tasks.delete(taskId)
    },
  }
}
