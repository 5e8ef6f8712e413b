import { inputRequired, type TaskStatus } from '@modelcontextprotocol/server'
import type { RunRecord } from '../runs/run-record.ts'
import { toolOfRun } from '../manifest/load-tool.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { approvalQuestion, resumeQuestion } from './waiting-run-questions.ts'
import { settledResult } from './mcp-tool-result.ts'
import { taskPollIntervalMs, taskStatusOf, taskTtlMs, waitingMessage } from './to-mcp-task.ts'
import { pendingQuestions } from '../runs/run-questions.ts'

/** The extension's id (SEP-2663), under `capabilities.extensions` and a request's client capabilities. */
export const tasksExtensionId = 'io.modelcontextprotocol/tasks'

/** What the host says of an attempt it gave up on: a crash (run-background-attempt.ts), or `background.timeoutMs`. */
const hostGaveUp = /^The run was interrupted|^The operation was aborted due to timeout/

/** A failure that is not the tool's: SEP-2663's `failed`; a tool's own is a `completed` task with an `isError` result (SPEC §5). */
function hostFailure(run: RunRecord): { code: number; message: string; data?: unknown } | undefined {
  if (run.status === 'expired') return { code: -32603, message: 'The run expired before anyone answered', data: { code: 'RUN_EXPIRED' } }
  if (run.status === 'failed' && run.error && hostGaveUp.test(run.error.message)) {
    return { code: -32603, message: run.error.message, data: { code: run.error.code } }
  }
  return undefined
}

/** A run's status as the extension's: as 2025-11-25's, but a tool's own failure or a decline is a `completed` task. */
function modernTaskStatusOf(run: RunRecord): TaskStatus {
  if (run.status === 'failed' || run.status === 'declined') return hostFailure(run) ? 'failed' : 'completed'
  // A running step that asked mid-execute waits for its requester, as a waiting run does.
  if (run.status === 'running' && Object.keys(pendingQuestions(run)).length > 0) return 'input_required'
  return taskStatusOf(run)
}

/** A background run as a 2026-07-28 task, whose fields name their unit (`ttlMs`: how long a waiting run waits, as `toMcpTask`'s `ttl`; `pollIntervalMs`). */
export function toModernTask(run: RunRecord, basePath: string) {
  const status = modernTaskStatusOf(run)
  const statusMessage =
    waitingMessage(run, basePath, 'answer inputRequests with tasks/update') ??
    (status === 'input_required' ? 'Waiting for input: answer inputRequests with tasks/update' : status === 'failed' ? hostFailure(run)?.message : undefined)
  return {
    taskId: run.runId,
    status,
    ...(statusMessage !== undefined ? { statusMessage } : {}),
    createdAt: run.createdAt,
    lastUpdatedAt: run.updatedAt,
    ttlMs: taskTtlMs(run) || null,
    ...(status === 'working' || status === 'input_required' ? { pollIntervalMs: taskPollIntervalMs } : {}),
  }
}

/** A waiting run's question's key: each is answered once, so a run suspended again is asked under its new suspension's time. */
export function questionKeyOf(run: RunRecord): string | undefined {
  if (run.status === 'approval-required') return `approval-${run.approvalId ?? run.runId}`
  if (run.status === 'suspended') return `resume-${Date.parse(run.updatedAt)}`
  return undefined
}

/** The task with what its status carries: the waiting run's question, the settled run's result, or the host's failure. */
export async function toDetailedModernTask(tools: ReadonlyMap<string, AnyTool>, run: RunRecord, basePath: string) {
  const task = toModernTask(run, basePath)
  if (task.status === 'input_required' && run.status === 'running') {
    const pending = Object.entries(pendingQuestions(run)).map(([key, request]) => [key, inputRequired.elicit(request as Parameters<typeof inputRequired.elicit>[0])])
    return { ...task, inputRequests: Object.fromEntries(pending) }
  }
  if (task.status === 'input_required') {
    const tool = await toolOfRun(tools, run)
    const question = run.status === 'approval-required' ? await approvalQuestion(tool, run) : await resumeQuestion(tool, run)
    // A resume form that no elicitation schema can express: the run waits for HTTP (its statusMessage says where).
    return { ...task, inputRequests: question ? { [questionKeyOf(run)!]: inputRequired.elicit(question as Parameters<typeof inputRequired.elicit>[0]) } : {} }
  }
  if (task.status === 'completed') return { ...task, result: { ...(await settledResult(run)), resultType: 'complete' } }
  if (task.status === 'failed') return { ...task, error: hostFailure(run)! }
  return task
}
