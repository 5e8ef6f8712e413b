import { acceptedContent, type ServerContext } from '@modelcontextprotocol/server'
import type { RunHost } from '../runs/run-host.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { pendingQuestions } from '../runs/run-questions.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import { answerPendingQuestions } from './answer-pending-questions.ts'

/** How often a call that waits for a run's first question looks at the run again. */
const lookEveryMs = 50

/**
 * Waits until a running run asks its first question or stops running (`mcp.askBeforeTask`). The
 * question lives on the run record, maybe in another process, so the run is read again until then.
 */
export async function firstTurn(runs: RunHost, run: RunRecord, principal: string | null, signal: AbortSignal): Promise<RunRecord> {
  let current = run
  while (current.status === 'running' && Object.keys(pendingQuestions(current)).length === 0 && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, lookEveryMs))
    current = (await runs.get(run.runId, { principal })).run
  }
  return current
}

/** Hands the answers a retry carries to a running run's pending questions: the run as it stands after them. */
export async function answerFirstTurn(runs: RunHost, run: RunRecord, principal: string | null, ctx: ServerContext): Promise<RunRecord> {
  const answered = await answerPendingQuestions(runs, run, principal, (key) => {
    const content = acceptedContent(ctx.mcpReq.inputResponses, key)
    if (content) return { action: 'accept', content: content as ElicitResult['content'] }
    const given = ctx.mcpReq.inputResponses?.[key] as { action?: unknown } | undefined
    return given?.action === 'decline' || given?.action === 'cancel' ? { action: given.action } : undefined
  })
  return answered === 'answered' ? (await runs.get(run.runId, { principal })).run : run
}
