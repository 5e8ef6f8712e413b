import type { ToolEvent } from '../events/tool-event.ts'
import { formatValidationErrors, type ValidationError } from '../schema/format-validation-errors.ts'
import type { AnyTool, ToolCallContextInput } from '../tool/tool-types.ts'
import { createObserve } from './create-observe.ts'
import { createRunId, createToolCallId } from './create-id.ts'
import { executeToolCall } from './execute-tool-call.ts'
import { receiveInput } from './receive-input.ts'
import { RequestContext } from './request-context.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { checkRequestContext } from './validate-call.ts'
import type { ToolrouteError } from '../errors/toolroute-error.ts'

function toValidationError(error: ToolrouteError): ValidationError {
  return { error: true, message: error.message, validationErrors: formatValidationErrors(error.issues ?? []) }
}

// Direct calls have no stream: logs at warn and above go to the console so failures in hooks are not silent.
function logToConsole(event: ToolEvent): void {
  if (event.type !== 'data-tool-log') return
  const { level, message, data } = event.data
  if (level === 'warn') console.warn(message, data ?? '')
  else if (level === 'error' || level === 'fatal') console.error(message, data ?? '')
}

/**
 * `tool.execute(input, context?)`: the same executor as every other surface, with Mastra's
 * direct-call contract. Order: input, request context, execute, suspend payload, output.
 * Validation failures come back as `{ error: true, message, validationErrors }`; an error
 * thrown by `execute` is thrown again, as Mastra does.
 */
export async function executeDirect(
  tool: AnyTool,
  input: unknown,
  context: ToolCallContextInput | undefined = {},
): Promise<unknown> {
  const requestContext = RequestContext.from(context.requestContext as Record<string, unknown> | undefined)
  const agent = context.agent ?? {}
  const toolCallId = agent.toolCallId ?? createToolCallId()
  const emit = context.observe ? () => {} : logToConsole
  const onSuspend = agent.suspend ?? (context.suspend as ((payload: unknown) => unknown) | undefined)
  const scope: ToolCallScope = {
    tool,
    runId: context.runId ?? createRunId(),
    toolCallId,
    requestContext,
    emit,
    observe: context.observe ?? createObserve(emit),
    signal: context.abortSignal ?? new AbortController().signal,
    messages: agent.messages ?? [],
    ...(context.mcp ? { mcp: context.mcp } : {}),
    ...(context.workflow ? { workflow: context.workflow } : {}),
    ...(onSuspend ? { onSuspend } : {}),
  }

  const received = await receiveInput(scope, { input })
  if (!received.ok) return toValidationError(received.error)

  const contextCheck = checkRequestContext(tool.id, tool.schemas.requestContext, requestContext.toJSON())
  if (!contextCheck.ok) return toValidationError(contextCheck.error)

  const resumeData = agent.resumeData ?? context.resumeData
  const suspendPayload = agent.suspendPayload ?? context.suspendPayload
  const resume = resumeData !== undefined || suspendPayload !== undefined ? { resumeData, suspendPayload } : undefined
  const outcome = await executeToolCall(scope, received.value.value, resume)
  if (outcome.status === 'completed') return outcome.output
  if (outcome.status === 'suspended') return undefined
  const { error } = outcome
  if (error.code === 'EXECUTION_FAILED') throw error.cause ?? error
  return toValidationError(error)
}
