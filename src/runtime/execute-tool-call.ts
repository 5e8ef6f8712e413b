import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'
import { callHook } from './call-hook.ts'
import { toModelOutputOf, type ToolModelOutput } from './model-output.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { checkOutput, checkSuspendPayload } from './validate-call.ts'

/** How one execution ended. */
export type ExecuteOutcome =
  | { status: 'completed'; output: unknown; modelOutput: ToolModelOutput }
  | { status: 'suspended'; suspendPayload: unknown }
  | { status: 'failed'; error: ToolrouteError }

/** What a resumed execution is told about the suspension it resumes. */
export interface ResumeState {
  resumeData: unknown
  suspendPayload: unknown
}

function abortError(signal: AbortSignal): ToolrouteError {
  const reason = signal.reason
  const message = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'The call was aborted'
  return new ToolrouteError('EXECUTION_FAILED', message, { cause: reason })
}

/**
 * Runs `execute` once and settles the call: output validated (and `toModelOutput` applied),
 * or a `suspend()` payload validated, or the failure. Emits `tool-output-available` and
 * `data-tool-model-output`, `data-tool-suspended`, or `tool-output-error`; `onOutput` on
 * success only. Never throws: every ending is an outcome the caller stores or answers with.
 */
export async function executeToolCall(scope: ToolCallScope, input: unknown, resume?: ResumeState): Promise<ExecuteOutcome> {
  const { tool, toolCallId, runId, emit, observe, signal } = scope
  const fail = (error: ToolrouteError): ExecuteOutcome => {
    emit({ type: 'tool-output-error', toolCallId, errorText: error.message })
    return { status: 'failed', error }
  }
  if (!tool.options.execute) return fail(new ToolrouteError('EXECUTION_FAILED', `Tool ${tool.id} has no execute function`))
  if (signal.aborted) return fail(abortError(signal))

  let suspended: { payload: unknown } | undefined
  let suspendError: ToolrouteError | undefined
  const suspend = async (payload: unknown): Promise<void> => {
    const checked = checkSuspendPayload(tool.id, tool.schemas.suspend, payload)
    if (!checked.ok) {
      suspendError = checked.error
      return
    }
    suspended = { payload: checked.value }
    await scope.onSuspend?.(checked.value)
  }

  const resumeFields = resume ? { resumeData: resume.resumeData, suspendPayload: resume.suspendPayload } : {}
  const context = {
    requestContext: scope.requestContext,
    abortSignal: signal,
    observe,
    suspend,
    runId,
    ...resumeFields,
    agent: { toolCallId, messages: scope.messages, suspend, ...resumeFields },
    ...(scope.mcp ? { mcp: scope.mcp } : {}),
    ...(scope.workflow ? { workflow: scope.workflow } : {}),
  }

  let result: unknown
  try {
    // Race the abort so a tool that ignores its signal still releases the caller.
    result = await new Promise((resolve, reject) => {
      const onAbort = () => reject(abortError(signal))
      signal.addEventListener('abort', onAbort, { once: true })
      Promise.resolve()
        .then(() => tool.options.execute!(input, context as never))
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort))
    })
  } catch (error) {
    if (ToolrouteError.isInstance(error)) return fail(error)
    return fail(new ToolrouteError('EXECUTION_FAILED', errorMessage(error), { cause: error }))
  }

  if (suspendError) return fail(suspendError)
  if (suspended) {
    emit({
      type: 'data-tool-suspended',
      data: {
        runId,
        toolCallId,
        suspendPayload: suspended.payload,
        ...(tool.schemas.resume ? { resumeSchema: tool.schemas.resume.jsonSchema } : {}),
      },
    })
    return { status: 'suspended', suspendPayload: suspended.payload }
  }

  let output = result
  const checked = checkOutput(tool.id, tool.schemas.output, result)
  if (checked.ok) output = checked.value
  else if (tool.options.outputValidation === 'warn') observe.log('warn', checked.error.message, { issues: checked.error.issues })
  else return fail(checked.error)

  let modelOutput: ToolModelOutput
  try {
    modelOutput = await toModelOutputOf(tool.options.toModelOutput, output)
  } catch (error) {
    return fail(new ToolrouteError('EXECUTION_FAILED', `toModelOutput failed: ${errorMessage(error)}`, { cause: error }))
  }
  emit({ type: 'tool-output-available', toolCallId, output })
  emit({ type: 'data-tool-model-output', data: { toolCallId, modelOutput } })
  await callHook('onOutput', tool.options.onOutput, { toolCallId, abortSignal: signal, output, toolName: tool.id }, observe)
  return { status: 'completed', output, modelOutput }
}

/** Whether this call needs a human's approval before `execute` runs. */
export async function needsApproval(scope: ToolCallScope, input: unknown): Promise<boolean> {
  const rule = scope.tool.requireApproval
  if (typeof rule === 'boolean') return rule
  return Boolean(await rule(input, { requestContext: scope.requestContext.toJSON() }))
}
