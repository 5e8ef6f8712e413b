import { isJson, type ToolrouteError } from '../errors/toolroute-error.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'
import { startCall } from '../runtime/start-call.ts'
import { toExecutionError, type ExecuteOutcome } from '../runtime/execute-tool-call.ts'
import type { ResumeState } from '../runtime/execution-context.ts'
import { toolOfRun } from '../manifest/load-tool.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { logExecutionFailure } from '../runtime/log-execution-failure.ts'
import { isCancelled } from './run-cancellation.ts'
import { isRunLimitError, outputNotJson, type RunLimits } from './run-limits.ts'
import type { RunNotifier } from './run-notifier.ts'
import type { RunRecord } from './run-record.ts'
import type { RunStore } from './run-store.ts'
import { askRunQuestion } from './run-questions.ts'
import type { McpToolContext } from '../tool/tool-execution-context.ts'
import type { CallTracer } from './call-tracer.ts'

/** Runs a tool's `execute` for a run that is `running`: the step between two transitions; with a `tracer`, a span linked to the run's first (SPEC §17). */
export function createStepRunner(deps: { tools: ReadonlyMap<string, AnyTool>; store: RunStore; notifier: RunNotifier; limits: Required<RunLimits>; tracer?: CallTracer | undefined }) {
  const { tools, store, notifier, limits } = deps
  const questions = { store, notifier, now: Date.now }
  // Each mid-execute question waits on the run record, where its answer lands whichever process it reaches.
  const asker = (runId: string, signal: AbortSignal): McpToolContext => ({
    elicitation: { sendRequest: (request, options) => askRunQuestion(questions, runId, request, options?.key ?? `question-${crypto.randomUUID()}`, signal) },
    extra: {},
  })
  return {
    /** The run's tool (a lazy one loaded on its first step here); `EXECUTION_FAILED` once it is gone or cannot load. */
    toolOf: (run: RunRecord): Promise<AnyTool> => toolOfRun(tools, run),
    /**
     * Executes, appending the events in order; a transient chunk goes to live followers after the
     * event numbered `after` (or the last appended since). Never throws: a failure is the outcome. An
     * append the store refuses (`limits`, a failed write) fails the step and aborts the tool's
     * `abortSignal`; the refusal's own `tool-output-error` goes past the limits, so the run ends readably.
     */
    async execute(run: RunRecord, signal: AbortSignal, resume?: ResumeState, after?: number, traceparent?: string): Promise<ExecuteOutcome> {
      let chain: Promise<unknown> = Promise.resolve()
      // The batch still waiting for its append; events emitted meanwhile join it.
      let batch: ToolEvent[] | undefined
      // The last event's number, when known: a transient chunk goes out under it.
      let lastSeq = after
      // The first write the store refused; the step fails with it, and the tool is told to stop.
      let refused: ToolrouteError | undefined
      const refusal = new AbortController()
      const stepSignal = AbortSignal.any([signal, refusal.signal])
      const emit = (event: ToolEvent) => {
        // Events emitted together (an output and its model output) are stored in one append.
        if (batch) return void batch.push(event)
        const current: ToolEvent[] = (batch = [event])
        chain = chain
          .then(() => {
            if (batch === current) batch = undefined
            // Checked when the append runs: an event emitted before a cancellation must not land after its `finish`.
            return refused || isCancelled(signal) ? undefined : store.append(run.runId, current, limits)
          })
          .then(
            (appended) => {
              if (appended?.length) lastSeq = appended[appended.length - 1]!.seq
              notifier.notify(run.runId)
            },
            (error: unknown) => {
              refused = isJson(current) ? toExecutionError(error) : outputNotJson()
              refusal.abort(refused)
            },
          )
      }
      // Never stored: to live followers, after the events emitted before it (so it closes the open batch).
      const emitTransient = (event: ToolEvent) => {
        batch = undefined
        chain = chain.then(() => {
          if (!refused && !isCancelled(signal)) notifier.deliver(run.runId, event, lastSeq)
        })
      }
      let outcome: ExecuteOutcome
      // Approved or resumed in a request (`after`), else a background attempt.
      const span = deps.tracer?.(run.toolId, { step: resume ? 'resume' : after === undefined ? 'attempt' : 'approve', first: run, traceparent: traceparent ?? run.approvedUnder })
      try {
        const tool = await toolOfRun(tools, run)
        // The stored request context checked again: a schema a redeploy changed may now refuse it.
        const call = startCall(tool, run.requestContext)
        if (!call.ok) throw call.error
        outcome = await call.step(run, run.input, emit, { emitTransient, signal: stepSignal, trace: span?.trace, ...(run.askable ? { mcp: asker(run.runId, stepSignal) } : {}) }, resume)
      } catch (error) {
        const failure = toExecutionError(error)
        emit({ type: 'tool-output-error', toolCallId: run.toolCallId, errorText: failure.message })
        outcome = { status: 'failed', error: failure }
      }
      await chain
      if (refused) {
        outcome = { status: 'failed', error: refused, ...(isRunLimitError(refused) ? { final: true as const } : {}) }
        if (!isCancelled(signal)) {
          await store.append(run.runId, [{ type: 'tool-output-error', toolCallId: run.toolCallId, errorText: refused.message }]).then(() => notifier.notify(run.runId), () => {})
        }
      }
      if (outcome.status === 'failed') logExecutionFailure(run.toolId, run.runId, outcome.error)
      span?.end(run, outcome.status === 'failed' ? outcome.error.code : undefined)
      return outcome
    },
  }
}
