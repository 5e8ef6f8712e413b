import type { CallToolResult } from '@modelcontextprotocol/server'
import type { RunRecord } from '../runs/run-record.ts'
import type { ElicitRequestParams, ElicitResult } from '../tool/tool-execution-context.ts'
import { answerWaitingRun, type AnswerContext } from './answer-waiting-run.ts'
import { followToEnd } from './follow-to-end.ts'
import { settledResult, waitingResult } from './mcp-tool-result.ts'
import { approvalQuestion, maxResumeAttempts, resumeQuestion } from './waiting-run-questions.ts'

export interface WaitingRunContext extends AnswerContext {
  basePath: string
  canElicit: boolean
  elicit(request: ElicitRequestParams): Promise<ElicitResult>
}

/** How many questions one call may ask before it hands the run over to HTTP (a tool that keeps suspending). */
const maxQuestions = 5

/** Approval or resume by elicitation, a resume asked again while its answers fail `resumeSchema`. */
export async function askAndAnswer(context: WaitingRunContext, run: RunRecord): Promise<RunRecord | undefined> {
  let problem = ''
  for (let attempt = 0; attempt < maxResumeAttempts; attempt++) {
    const question = run.status === 'approval-required' ? await approvalQuestion(context.tool, run) : await resumeQuestion(context.tool, run, problem)
    if (!question) return undefined
    // No answer (timeout, cancelled call, a client error): the run stays waiting for HTTP.
    const answer = await context.elicit(question).catch(() => undefined)
    if (!answer) return undefined
    const next = await answerWaitingRun(context, run, answer)
    if (!next || !('problem' in next)) return next
    problem = next.problem
  }
  return undefined
}

/** Takes a waiting or background run to its end in the call, asking by elicitation when the client can. */
export async function finishWaitingRun(context: WaitingRunContext, run: RunRecord): Promise<CallToolResult> {
  let current = run
  for (let asked = 0; ; ) {
    if (current.status === 'running') {
      current = await followToEnd(context, current)
      if (current.status === 'running') return waitingResult(context.tool, current, context.basePath)
      continue
    }
    if (current.status !== 'approval-required' && current.status !== 'suspended') return settledResult(current)
    const next = context.canElicit && asked++ < maxQuestions ? await askAndAnswer(context, current) : undefined
    if (!next) return waitingResult(context.tool, current, context.basePath)
    current = next
  }
}
