import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'
import { abortFailure } from './call-abort.ts'
import { callHook, withAbortSignal } from './call-hook.ts'
import { ExecutionContext, type ResumeState } from './execution-context.ts'
import { toModelOutputOf } from './model-output.ts'
import type { ToolModelOutput } from '../protocol/model-output.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { checkOutput, failureDetails, type Checked } from './validate-call.ts'

/** How one execution ended; `final`: a failure no retry may undo (the run reached a limit). */
export type ExecuteOutcome =
  | { status: 'completed'; output: unknown; modelOutput: ToolModelOutput }
  | { status: 'suspended'; suspendPayload: unknown }
  | { status: 'failed'; error: ToolrouteError; final?: true }

/** The `finish` event that ends a step with this outcome (`other`: it waits to be resumed). */
export function finishOf(outcome: ExecuteOutcome): ToolEvent {
  return { type: 'finish', finishReason: outcome.status === 'failed' ? 'error' : outcome.status === 'suspended' ? 'other' : 'stop' }
}

/** Anything `execute` threw, as a ToolrouteError (`EXECUTION_FAILED` unless it already is one). */
export function toExecutionError(error: unknown): ToolrouteError {
  if (ToolrouteError.isInstance(error)) return error
  return new ToolrouteError('EXECUTION_FAILED', errorMessage(error), { cause: error })
}

/** Emits `tool-output-error` and returns the failed outcome. */
function failExecution(scope: ToolCallScope, error: ToolrouteError): { status: 'failed'; error: ToolrouteError } {
  scope.emit?.({ type: 'tool-output-error', toolCallId: scope.toolCallId, errorText: error.message })
  return { status: 'failed', error }
}

/**
 * Drives an async generator `execute` (SPEC §8): each yield is a preliminary `tool-output-available`,
 * and the last one the final output (a `return` value is ignored, as in the AI SDK's `executeTool`).
 * Once the execution has ended (an abort), the generator is stopped and its yields dropped.
 */
async function streamOutputs(scope: ToolCallScope, context: ExecutionContext, outputs: AsyncIterable<unknown>): Promise<unknown> {
  const iterator = outputs[Symbol.asyncIterator]()
  let last: unknown
  while (true) {
    const next = await iterator.next()
    if (next.done) return last
    if (ExecutionContext.hasEnded(context)) {
      await iterator.return?.()
      return last
    }
    last = next.value
    if (scope.emit) scope.emit({ type: 'tool-output-available', toolCallId: scope.toolCallId, output: last ?? null, preliminary: true })
  }
}

/** What `execute` returned; an async iterable (an `async function*`: the AI SDK's own test) driven to its last yield. */
function resultOf(scope: ToolCallScope, context: ExecutionContext, returned: unknown): unknown {
  const iterable = returned != null && typeof (returned as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
  return iterable ? streamOutputs(scope, context, returned as AsyncIterable<unknown>) : returned
}

/**
 * Calls `execute`, raced against the call's signal when it has one, so a tool that ignores its
 * signal still releases the caller. May throw synchronously: callers await it inside `try`.
 */
export function runExecute(scope: ToolCallScope, context: ExecutionContext, input: unknown): unknown {
  const { execute } = scope.tool.options
  if (!execute) throw new ToolrouteError('EXECUTION_FAILED', `Tool ${scope.tool.id} has no execute function`)
  if (scope.raceAbort) return scope.raceAbort(resultOf(scope, context, execute(input, context as never)))
  const signal = scope.signal
  if (!signal) return resultOf(scope, context, execute(input, context as never))
  if (signal.aborted) throw abortFailure(signal.reason)
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortFailure(signal.reason))
    signal.addEventListener('abort', onAbort, { once: true })
    // Called at once, as on the other paths; one that throws rejects like one that fails later.
    new Promise((settle) => settle(resultOf(scope, context, execute(input, context as never))))
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * Ends the execution that returned `result` and settles it, for every call and `tool.execute()`:
 * a `suspend()` (`data-tool-suspended`, or an invalid payload's failure), else the output checked.
 */
export function settleResult(scope: ToolCallScope, context: ExecutionContext, result: unknown): Exclude<ExecuteOutcome, { status: 'completed' }> | Checked<unknown> {
  ExecutionContext.end(context)
  const suspension = ExecutionContext.suspensionOf(context)
  if (suspension && !suspension.ok) return failExecution(scope, suspension.error)
  if (suspension) {
    const resumeSchema = scope.tool.schemas.resume?.jsonSchema
    scope.emit?.({
      type: 'data-tool-suspended',
      data: { runId: scope.runId, toolCallId: scope.toolCallId, suspendPayload: suspension.payload, ...(resumeSchema ? { resumeSchema } : {}) },
    })
    return { status: 'suspended', suspendPayload: suspension.payload }
  }
  const output = checkOutput(scope.tool.id, scope.tool.schemas.output, result)
  if (output.ok) return output
  // An output that failed `outputSchema` is kept and logged under `outputValidation: 'warn'`.
  if (scope.tool.options.outputValidation === 'warn') {
    const { message, issues } = failureDetails(output)
    scope.observe.log('warn', message, { issues })
    return { ok: true, value: result }
  }
  scope.emit?.({ type: 'tool-output-error', toolCallId: scope.toolCallId, errorText: output.error.message })
  return output
}

/** Runs `onOutput` (success only); a hook that throws is logged, never fails the call. */
export async function callOnOutput(scope: ToolCallScope, output: unknown): Promise<void> {
  const { tool, toolCallId, observe } = scope
  await callHook('onOutput', tool.options.onOutput, withAbortSignal(scope, { toolCallId, output, toolName: tool.id }), observe)
}

/**
 * A valid output: `toModelOutput` applied (its failure fails the call), its events, then `onOutput`.
 * A tool that returned nothing answers `output: null` on every surface (the AI SDK's chunks require it).
 */
async function completeExecution(scope: ToolCallScope, returned: unknown): Promise<ExecuteOutcome> {
  let modelOutput: ToolModelOutput
  try {
    modelOutput = await toModelOutputOf(scope.tool.options.toModelOutput, returned)
  } catch (error) {
    return failExecution(scope, new ToolrouteError('EXECUTION_FAILED', `toModelOutput failed: ${errorMessage(error)}`, { cause: error }))
  }
  const output = returned === undefined ? null : returned
  scope.emit?.({ type: 'tool-output-available', toolCallId: scope.toolCallId, output })
  scope.emit?.({ type: 'data-tool-model-output', data: { toolCallId: scope.toolCallId, modelOutput } })
  if (scope.tool.options.onOutput) await callOnOutput(scope, returned)
  return { status: 'completed', output, modelOutput }
}

/**
 * Runs `execute` once and settles the call: the output validated (`outputValidation`), a
 * `suspend()`, or the failure, with their events; `onOutput` on success only. Never rejects.
 */
export async function executeToolCall(scope: ToolCallScope, input: unknown, resume?: ResumeState): Promise<ExecuteOutcome> {
  const context = new ExecutionContext(scope, resume)
  let result: unknown
  try {
    result = await (scope.trace ? scope.trace('execute', async () => runExecute(scope, context, input)) : runExecute(scope, context, input))
  } catch (error) {
    ExecutionContext.end(context)
    return failExecution(scope, toExecutionError(error))
  }
  const settled = settleResult(scope, context, result)
  if ('status' in settled) return settled
  return settled.ok ? completeExecution(scope, settled.value) : { status: 'failed', error: settled.error }
}

/** Whether this call needs a human's approval before `execute` runs. */
export async function needsApproval(scope: ToolCallScope, input: unknown): Promise<boolean> {
  const rule = scope.tool.requireApproval
  if (typeof rule === 'boolean') return rule
  return Boolean(await rule(input, { requestContext: scope.requestContext.toJSON() }))
}
