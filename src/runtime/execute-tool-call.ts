import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'
import { callHook } from './call-hook.ts'
import { ExecutionContext, type ResumeState } from './execution-context.ts'
import { toModelOutputOf, type ToolModelOutput } from './model-output.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { checkOutput } from './validate-call.ts'

export type { ResumeState } from './execution-context.ts'

/** How one execution ended. */
export type ExecuteOutcome =
  | { status: 'completed'; output: unknown; modelOutput: ToolModelOutput }
  | { status: 'suspended'; suspendPayload: unknown }
  | { status: 'failed'; error: ToolrouteError }

/** An execution once `execute` returned, before the model output and `onOutput`. */
export type SettledExecution = Exclude<ExecuteOutcome, { status: 'completed' }> | { status: 'completed'; output: unknown }

const abortMarker = Symbol.for('toolroute.abort')

function abortError(signal: AbortSignal): ToolrouteError {
  const reason = signal.reason
  const message = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'The call was aborted'
  return Object.assign(new ToolrouteError('EXECUTION_FAILED', message, { cause: reason }), { [abortMarker]: true })
}

/** Whether an error is the executor's own "the signal aborted" failure (its `cause` is the abort reason). */
export function isAbortFailure(error: unknown): error is ToolrouteError {
  return ToolrouteError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[abortMarker] === true
}

/** Anything `execute` threw, as a ToolrouteError (`EXECUTION_FAILED` unless it already is one). */
export function toExecutionError(error: unknown): ToolrouteError {
  if (ToolrouteError.isInstance(error)) return error
  return new ToolrouteError('EXECUTION_FAILED', errorMessage(error), { cause: error })
}

/** Emits `tool-output-error` and returns the failed outcome. */
export function failExecution(scope: ToolCallScope, error: ToolrouteError): { status: 'failed'; error: ToolrouteError } {
  scope.emit?.({ type: 'tool-output-error', toolCallId: scope.toolCallId, errorText: error.message })
  return { status: 'failed', error }
}

/**
 * Calls `execute`. With a signal, the call races it, so a tool that ignores its signal still
 * releases the caller; without one (a direct call that passed none) nothing is raced or
 * allocated. May throw synchronously when `execute` does: callers await it inside `try`.
 */
export function runExecute(scope: ToolCallScope, context: ExecutionContext, input: unknown): unknown {
  const { tool, signal } = scope
  const execute = tool.options.execute
  if (!execute) throw new ToolrouteError('EXECUTION_FAILED', `Tool ${tool.id} has no execute function`)
  if (!signal) return execute(input, context as never)
  if (signal.aborted) throw abortError(signal)
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    let pending: Promise<unknown>
    try {
      pending = Promise.resolve(execute(input, context as never))
    } catch (error) {
      pending = Promise.reject(error)
    }
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * Settles what `execute` returned, synchronously: a `suspend()` payload (validated when
 * `suspend` was called), or the output validated against `outputSchema` (with
 * `outputValidation: 'warn'` a bad output is logged and kept). Emits `data-tool-suspended`
 * or `tool-output-error`; a completed output still needs `completeExecution`.
 */
export function settleExecution(scope: ToolCallScope, context: ExecutionContext, result: unknown): SettledExecution {
  const { tool } = scope
  const suspension = ExecutionContext.suspensionOf(context)
  if (suspension && !suspension.ok) return failExecution(scope, suspension.error)
  if (suspension) {
    scope.emit?.({
      type: 'data-tool-suspended',
      data: { runId: scope.runId, toolCallId: scope.toolCallId, suspendPayload: suspension.payload, ...(tool.schemas.resume ? { resumeSchema: tool.schemas.resume.jsonSchema } : {}) },
    })
    return { status: 'suspended', suspendPayload: suspension.payload }
  }
  const checked = checkOutput(tool.id, tool.schemas.output, result)
  if (checked.ok) return { status: 'completed', output: checked.value }
  if (tool.options.outputValidation !== 'warn') return failExecution(scope, checked.error)
  scope.observe.log('warn', checked.error.message, { issues: checked.error.issues })
  return { status: 'completed', output: result }
}

/** Runs `onOutput` (success only); a hook that throws is logged, never fails the call. */
export async function callOnOutput(scope: ToolCallScope, output: unknown): Promise<void> {
  const { tool, toolCallId, signal, observe } = scope
  await callHook('onOutput', tool.options.onOutput, { toolCallId, abortSignal: signal, output, toolName: tool.id }, observe)
}

/**
 * Completes a settled output: `toModelOutput` applied (a failure there fails the call),
 * `tool-output-available` and `data-tool-model-output` emitted, then `onOutput`.
 */
export async function completeExecution(scope: ToolCallScope, output: unknown): Promise<ExecuteOutcome> {
  const { tool, toolCallId, emit } = scope
  let modelOutput: ToolModelOutput
  try {
    modelOutput = await toModelOutputOf(tool.options.toModelOutput, output)
  } catch (error) {
    return failExecution(scope, new ToolrouteError('EXECUTION_FAILED', `toModelOutput failed: ${errorMessage(error)}`, { cause: error }))
  }
  emit?.({ type: 'tool-output-available', toolCallId, output })
  emit?.({ type: 'data-tool-model-output', data: { toolCallId, modelOutput } })
  if (tool.options.onOutput) await callOnOutput(scope, output)
  return { status: 'completed', output, modelOutput }
}

/**
 * Runs `execute` once and settles the call: output validated (and `toModelOutput` applied),
 * or a `suspend()` payload validated, or the failure. Emits `tool-output-available` and
 * `data-tool-model-output`, `data-tool-suspended`, or `tool-output-error`; `onOutput` on
 * success only. Never throws: every ending is an outcome the caller stores or answers with.
 */
export async function executeToolCall(scope: ToolCallScope, input: unknown, resume?: ResumeState): Promise<ExecuteOutcome> {
  const context = new ExecutionContext(scope, resume)
  let result: unknown
  try {
    result = await runExecute(scope, context, input)
  } catch (error) {
    return failExecution(scope, toExecutionError(error))
  }
  const settled = settleExecution(scope, context, result)
  return settled.status === 'completed' ? completeExecution(scope, settled.output) : settled
}

/** Whether this call needs a human's approval before `execute` runs. */
export async function needsApproval(scope: ToolCallScope, input: unknown): Promise<boolean> {
  const rule = scope.tool.requireApproval
  if (typeof rule === 'boolean') return rule
  return Boolean(await rule(input, { requestContext: scope.requestContext.toJSON() }))
}
