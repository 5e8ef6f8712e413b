import type { ToolEvent } from '../events/tool-event.ts'
import type { ValidationIssue } from '../errors/toolroute-error.ts'
import { formatValidationErrors, type ValidationError } from '../schema/format-validation-errors.ts'
import type { AnyTool, McpToolContext, ToolCallContextInput, ToolObserve, WorkflowToolContext } from '../tool/tool-types.ts'
import { createObserve } from './create-observe.ts'
import { createRunId, createToolCallId } from './create-id.ts'
import { ExecutionContext, type ResumeState } from './execution-context.ts'
import { callOnOutput, isAbortFailure, runExecute, settleExecution, toExecutionError } from './execute-tool-call.ts'
import { receiveParsedInput } from './receive-input.ts'
import { RequestContext } from './request-context.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { checkRequestContext, checkResumeData } from './validate-call.ts'

function toValidationError(error: { message: string; issues?: ValidationIssue[] }): ValidationError {
  return { error: true, message: error.message, validationErrors: formatValidationErrors(error.issues ?? []) }
}

// Direct calls have no stream: logs at warn and above go to the console so failures in hooks are not silent.
function logToConsole(event: ToolEvent): void {
  if (event.type !== 'data-tool-log') return
  const { level, message, data } = event.data
  if (level === 'warn') console.warn(message, data ?? '')
  else if (level === 'error' || level === 'fatal') console.error(message, data ?? '')
}

/** What a direct call makes only when something reads it. */
interface LazyParts {
  toolCallId?: string
  runId?: string
  requestContext?: RequestContext<any>
  observe?: ToolObserve
  messages?: unknown[]
}

/**
 * The scope of a direct call. Ids, the request context, `observe` and `messages` are made on
 * first read: a call that reads none of them (the common case) pays for no random ids and no
 * objects. There is no `emit`: a direct call has no stream, so no events are built. Plain
 * (not `#`) fields, since this object is internal and is made on every call.
 */
class DirectCallScope implements ToolCallScope {
  declare readonly tool: AnyTool
  declare readonly emit: undefined
  /** The request context's values once validated against `requestContextSchema`. */
  declare validatedContext: Record<string, unknown> | undefined
  private declare readonly call: ToolCallContextInput
  private declare lazy: LazyParts | undefined

  constructor(tool: AnyTool, call: ToolCallContextInput) {
    this.tool = tool
    this.call = call
    this.validatedContext = undefined
    this.lazy = undefined
  }

  private get parts(): LazyParts {
    return (this.lazy ??= {})
  }

  get signal(): AbortSignal | undefined {
    return this.call.abortSignal
  }

  get mcp(): McpToolContext | undefined {
    return this.call.mcp
  }

  get workflow(): WorkflowToolContext<unknown, unknown> | undefined {
    return this.call.workflow
  }

  get onSuspend(): ((payload: unknown) => unknown) | undefined {
    return (this.call.agent?.suspend ?? this.call.suspend) as ((payload: unknown) => unknown) | undefined
  }

  get toolCallId(): string {
    return (this.parts.toolCallId ??= this.call.agent?.toolCallId ?? createToolCallId())
  }

  get runId(): string {
    return (this.parts.runId ??= this.call.runId ?? createRunId())
  }

  get messages(): unknown[] {
    return (this.parts.messages ??= this.call.agent?.messages ?? [])
  }

  /**
   * A `RequestContext` passed in is used as it is (the caller's object, which `execute` may
   * change); a plain object becomes one, holding the validated values when the tool has a
   * `requestContextSchema` (defaults and transforms applied, as over HTTP).
   */
  get requestContext(): RequestContext<any> {
    const parts = this.parts
    if (parts.requestContext) return parts.requestContext
    const given = this.call.requestContext
    return (parts.requestContext =
      given instanceof RequestContext ? given : new RequestContext(this.validatedContext ?? (given as Record<string, unknown> | undefined)))
  }

  get observe(): ToolObserve {
    return (this.parts.observe ??= this.call.observe ?? createObserve(logToConsole))
  }
}

const noContext: ToolCallContextInput = Object.freeze({})

function contextValues(requestContext: ToolCallContextInput['requestContext']): Record<string, unknown> {
  if (requestContext instanceof RequestContext) return requestContext.toJSON()
  return (requestContext ?? {}) as Record<string, unknown>
}

function resumeOf(context: ToolCallContextInput): ResumeState | undefined {
  const agent = context.agent
  const resumeData = agent?.resumeData ?? context.resumeData
  const suspendPayload = agent?.suspendPayload ?? context.suspendPayload
  return resumeData !== undefined || suspendPayload !== undefined ? { resumeData, suspendPayload } : undefined
}

/**
 * `tool.execute(input, context?)`: the executor's phases with Mastra's direct-call contract.
 * Order: input, request context, resume data, execute, suspend payload, output.
 * Validation failures come back as `{ error: true, message, validationErrors }`; an error
 * thrown by `execute` is thrown again, as Mastra does (an abort throws the signal's reason).
 * Hooks run as on every surface; `toModelOutput` does not (only a model reads it).
 */
export async function executeDirect(tool: AnyTool, input: unknown, context?: ToolCallContextInput | null): Promise<unknown> {
  const call = context ?? noContext
  const scope = new DirectCallScope(tool, call)
  let received = receiveParsedInput(scope, input)
  if (received instanceof Promise) received = await received
  if (!received.ok) return toValidationError(received.error)

  const { schemas } = tool
  if (schemas.requestContext) {
    const checked = checkRequestContext(tool.id, schemas.requestContext, contextValues(call.requestContext))
    if (!checked.ok) return toValidationError(checked.error)
    scope.validatedContext = checked.value
  }

  let resume = resumeOf(call)
  if (resume && resume.resumeData != null && schemas.resume) {
    const checked = checkResumeData(tool.id, schemas.resume, resume.resumeData)
    if (!checked.ok) return toValidationError(checked.error)
    resume = { resumeData: checked.value, suspendPayload: resume.suspendPayload }
  }

  const executionContext = new ExecutionContext(scope, resume)
  let result: unknown
  try {
    result = await runExecute(scope, executionContext, received.value)
  } catch (error) {
    const failure = toExecutionError(error)
    if (failure.code !== 'EXECUTION_FAILED') return toValidationError(failure)
    throw isAbortFailure(failure) ? failure.cause : error
  }
  const settled = settleExecution(scope, executionContext, result)
  if (settled.status === 'completed') {
    if (tool.options.onOutput) await callOnOutput(scope, settled.output)
    return settled.output
  }
  return settled.status === 'suspended' ? undefined : toValidationError(settled.error)
}
