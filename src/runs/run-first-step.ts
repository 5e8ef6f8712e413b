import { errorMessage, type ToolrouteError } from '../errors/toolroute-error.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'
import type { EventLog } from '../events/event-log.ts'
import { randomHex } from '../runtime/create-id.ts'
import { executeToolCall, finishOf, needsApproval, type ExecuteOutcome } from '../runtime/execute-tool-call.ts'
import { receiveInput, type ToolInputSource } from '../runtime/receive-input.ts'
import type { ToolCallScope } from '../runtime/tool-call-scope.ts'
import { isBackgroundTool } from '../tool/is-background-tool.ts'
import { refusalToStore } from './create-no-run-host.ts'
import { logExecutionFailure } from './log-execution-failure.ts'
import type { RunHost } from './run-host.ts'
import type { RunRecord } from './run-record.ts'

/** How the first step of a call ended; `run` is the run as stored, when it was. */
export type FirstStepEnding =
  | { kind: 'input-error'; error: ToolrouteError }
  | { kind: 'approval-required'; approvalId: string; run: RunRecord }
  | { kind: 'background'; run: RunRecord }
  | { kind: 'executed'; outcome: ExecuteOutcome; run?: RunRecord }

/**
 * Who owns a run the step stores: the value, or how to get it, asked only when a run is stored
 * (HTTP's default rule hashes the caller's credential, which a call that stores nothing never needs).
 */
export type StepPrincipal = string | null | (() => Promise<string | null>)

export interface FirstStep {
  scope: ToolCallScope
  /** Where the scope's events go; closed when the step ends. */
  log: EventLog
  source: ToolInputSource
  principal: StepPrincipal
  /** The request context, validated by the tool's schema: what this step's rules read. */
  requestContext: Record<string, unknown>
  /**
   * The request context as the caller sent it, before the schema: what the run stores. A later step
   * (an approval, a resume, a background attempt) parses it again, so a codec or a transform gives
   * `execute` the same values it would have had at once (a `Date` stays a `Date`, a transform is not
   * applied twice).
   */
  sentRequestContext: Record<string, unknown>
  runs: () => RunHost
  storeRuns: 'stateful' | 'all'
  /** Events the scope held back until the run they name is stored (`data-tool-suspended`). */
  held?: ToolEvent[]
  /** Told as soon as the input phase ends, before any approval or execution. */
  onInput?: (ok: boolean) => void
  /** Kept on the run it stores (`RunRecord.progressToken`): an MCP task's progress token. */
  progressToken?: string | number
}

/**
 * The first step of a call, in the process that received it (an HTTP request, an MCP call):
 * input phase, the approval rule, then a background hand-off or `execute`. A run that must wait
 * (approval, background, suspended), or any run under `storeRuns: 'all'`, is stored through the
 * run host with the step's events, so its log continues under the same ids. Events go to `log`,
 * which ends with `finish` however the step ends; a failure to store rejects, after
 * `tool-output-error` and `finish`.
 */
export async function runFirstStep(step: FirstStep): Promise<FirstStepEnding> {
  const { scope, log } = step
  const { tool, runId, toolCallId } = scope
  /** Stores the run with the step's events plus `last`, then adds `last` to the log. */
  const open = async (run: RunRecord, last: ToolEvent[]): Promise<RunRecord> => {
    await step.runs().open(run, [...log.events, ...last])
    last.forEach(log.push)
    return run
  }
  try {
    log.push({ type: 'start', messageMetadata: { runId, toolCallId } })
    // A run stored whatever happens, by an app that keeps none: refused before any hook runs.
    const refused = step.storeRuns === 'all' ? refusalToStore(step.runs()) : undefined
    if (refused) throw refused
    // Awaited only when the input phase has something to wait for (hooks, a body still arriving).
    const receiving = receiveInput(scope, step.source)
    const received = receiving instanceof Promise ? await receiving : receiving
    step.onInput?.(received.ok)
    if (!received.ok) {
      log.push({ type: 'finish', finishReason: 'error' })
      return { kind: 'input-error', error: received.error }
    }
    const input = received.value.value
    // Built only for a run that is stored: formatting dates costs more than a stateless call's validation.
    const record = async (): Promise<Omit<RunRecord, 'status'>> => {
      const principal = typeof step.principal === 'function' ? await step.principal() : step.principal
      const at = new Date().toISOString()
      return {
        runId,
        toolId: tool.id,
        toolCallId,
        principal,
        createdAt: at,
        updatedAt: at,
        input,
        requestContext: step.sentRequestContext,
        ...(step.progressToken !== undefined ? { progressToken: step.progressToken } : {}),
      }
    }
    // Awaited only for a rule that is a function: most tools decide once, at definition.
    if (typeof tool.requireApproval === 'boolean' ? tool.requireApproval : await needsApproval(scope, input)) {
      const approvalId = `approval_${randomHex(12)}`
      const run = await open({ ...(await record()), status: 'approval-required', approvalId, ...(isBackgroundTool(tool) ? { background: true } : {}) }, [
        { type: 'tool-approval-request', approvalId, toolCallId },
        { type: 'finish', finishReason: 'other' },
      ])
      return { kind: 'approval-required', approvalId, run }
    }
    if (isBackgroundTool(tool)) {
      return { kind: 'background', run: await open({ ...(await record()), status: 'running', background: true, attempts: 0 }, []) }
    }
    const outcome = await executeToolCall(scope, input)
    if (outcome.status === 'failed') logExecutionFailure(tool.id, runId, outcome.error)
    const finish = finishOf(outcome)
    if (outcome.status === 'suspended') {
      const run = await open({ ...(await record()), status: 'suspended', suspendPayload: outcome.suspendPayload }, [...(step.held?.splice(0) ?? []), finish])
      return { kind: 'executed', outcome, run }
    }
    if (step.storeRuns === 'all') {
      const base = await record()
      const settled: RunRecord =
        outcome.status === 'completed'
          ? { ...base, status: 'completed', output: outcome.output, modelOutput: outcome.modelOutput }
          : { ...base, status: 'failed', error: outcome.error.toJSON().error }
      return { kind: 'executed', outcome, run: await open(settled, [finish]) }
    }
    log.push(finish)
    return { kind: 'executed', outcome }
  } catch (error) {
    // The run could not be stored (or a hook of ours broke): the stream still ends properly.
    step.onInput?.(false)
    log.push({ type: 'tool-output-error', toolCallId, errorText: errorMessage(error) })
    log.push({ type: 'finish', finishReason: 'error' })
    throw error
  } finally {
    log.close()
  }
}
