import type { ToolEvent } from '../protocol/tool-event.ts'
import type { ValidationIssue } from '../protocol/error-codes.ts'
import { formatValidationErrors, type ValidationError } from '../schema/format-validation-errors.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { AgentToolContext, McpToolContext, ToolCallContextInput, ToolObserve, WorkflowToolContext } from '../tool/tool-execution-context.ts'
import { createObserve } from './create-observe.ts'
import { createRunId, createToolCallId } from './create-id.ts'
import { ExecutionContext, type ResumeState } from './execution-context.ts'
import { isAbortFailure } from './call-abort.ts'
import { callOnOutput, runExecute, settleInvalidOutput, settleSuspension, toExecutionError } from './execute-tool-call.ts'
import { receiveInput } from './receive-input.ts'
import { resultOf } from './stream-outputs.ts'
import { RequestContext } from '../tool/request-context.ts'
import { ParsedRequestContext, isRequestContextLike, requestContextValues } from './parsed-request-context.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { startCall } from './start-call.ts'
import { checkInput, checkOutput, checkResumeData, directFailureDetails, failureDetails, preview, type Checked } from './validate-call.ts'

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
  /** The request context's values as `requestContextSchema` parsed them (`startCall`); none without a schema. */
  private declare readonly validatedContext: Record<string, unknown> | undefined
  private declare readonly call: ToolCallContextInput
  private declare lazy: LazyParts | undefined

  constructor(tool: AnyTool, call: ToolCallContextInput, validatedContext: Record<string, unknown> | undefined) {
    this.tool = tool
    this.call = call
    this.validatedContext = validatedContext
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

  /** Mastra's rule: a flat `{ toolCallId, messages }` is an agent's call; with no agent fields there is no agent. */
  get agent(): Partial<AgentToolContext<unknown, unknown>> | null {
    const call = this.call
    if (call.agent) return call.agent
    if (!isFlatAgentCall(call)) return null
    return { agentId: call.agentId, threadId: call.threadId, resourceId: call.resourceId }
  }

  /** A flat `{ workflowId, runId, state, setState, … }` moves under `workflow`, as in Mastra. */
  get workflow(): WorkflowToolContext<unknown, unknown> | undefined {
    const call = this.call
    if (call.workflow || !call.workflowId || isFlatAgentCall(call)) return call.workflow
    const { workflowId, runId, state, setState, suspend, resumeData, suspendPayload } = call
    return { workflowId, runId: runId as string, state, setState: setState as WorkflowToolContext<unknown, unknown>['setState'], suspend: suspend as never, resumeData, suspendPayload }
  }

  get writer(): ToolCallContextInput['writer'] {
    return this.call.writer
  }

  get onSuspend(): ((payload: unknown, suspendOptions?: Record<string, unknown>) => unknown) | undefined {
    const call = this.call
    return (call.agent?.suspend ?? call.workflow?.suspend ?? call.suspend) as ((payload: unknown, suspendOptions?: Record<string, unknown>) => unknown) | undefined
  }

  get toolCallId(): string {
    return (this.parts.toolCallId ??= this.call.agent?.toolCallId ?? this.call.toolCallId ?? createToolCallId())
  }

  get runId(): string {
    return (this.parts.runId ??= this.call.runId ?? createRunId())
  }

  get messages(): unknown[] {
    return (this.parts.messages ??= this.call.agent?.messages ?? this.call.messages ?? [])
  }

  /**
   * A `RequestContext` passed in is used as it is (the caller's object, which `execute` may
   * change). With a `requestContextSchema`, the tool sees the parsed values instead (defaults,
   * transforms, codecs applied, as over HTTP): a view over the caller's context that writes
   * through to it. A plain object becomes a `RequestContext`.
   */
  get requestContext(): RequestContext<any> {
    const parts = this.parts
    if (parts.requestContext) return parts.requestContext
    const given = this.call.requestContext
    const parsed = this.validatedContext
    if (isRequestContextLike(given)) {
      const schema = this.tool.schemas.requestContext
      return (parts.requestContext = parsed && schema ? new ParsedRequestContext(given, parsed, schema) : (given as RequestContext<any>))
    }
    const values = given as Record<string, unknown> | undefined
    return (parts.requestContext = new RequestContext(parsed ? { ...values, ...parsed } : values))
  }

  get observe(): ToolObserve {
    return (this.parts.observe ??= this.call.observe ?? createObserve(logToConsole))
  }
}

const noContext: ToolCallContextInput = Object.freeze({})
const noValues: Record<string, unknown> = Object.freeze({})

function isFlatAgentCall(call: ToolCallContextInput): boolean {
  return Boolean(call.toolCallId && call.messages)
}

function contextValues(requestContext: ToolCallContextInput['requestContext']): Record<string, unknown> {
  if (isRequestContextLike(requestContext)) return requestContextValues(requestContext)
  return (requestContext ?? {}) as Record<string, unknown>
}

function resumeOf(context: ToolCallContextInput): ResumeState | undefined {
  const { agent, workflow } = context
  const resumeData = agent?.resumeData ?? workflow?.resumeData ?? context.resumeData
  const suspendPayload = agent?.suspendPayload ?? workflow?.suspendPayload ?? context.suspendPayload
  return resumeData !== undefined || suspendPayload !== undefined ? { resumeData, suspendPayload } : undefined
}

/** The resume data check, out of line: most direct calls have nothing to resume, and the hot path stays small. */
function prepareResume(tool: AnyTool, call: ToolCallContextInput): { error: ValidationError } | { resume: ResumeState | undefined } {
  const { schemas } = tool
  const resume = resumeOf(call)
  if (resume && resume.resumeData != null && schemas.resume) {
    const checked = checkResumeData(tool.id, schemas.resume, resume.resumeData)
    if (!checked.ok) return { error: toValidationError(directFailureDetails(checked)) }
    return { resume: { resumeData: checked.value, suspendPayload: resume.suspendPayload } }
  }
  return { resume }
}

/** What a direct call does with an error from `execute`: Mastra's contract, out of line. */
function directFailure(error: unknown): ValidationError {
  const failure = toExecutionError(error)
  if (failure.code !== 'EXECUTION_FAILED') return toValidationError(failure)
  throw isAbortFailure(failure) ? failure.cause : error
}

/**
 * A direct call's output failure shows what `execute` returned, truncated, as Mastra's does: the
 * caller is the tool's own code. HTTP and MCP errors carry the message without it.
 */
function outputFailure(details: { message: string; issues?: ValidationIssue[] }, result: unknown): ValidationError {
  const failure = toValidationError(details)
  failure.message = `${failure.message}\n\nReturned output: ${preview(result)}`
  return failure
}

function directSuspension(scope: DirectCallScope, context: ExecutionContext): ValidationError | undefined {
  const settled = settleSuspension(scope, context)
  return settled?.status === 'failed' ? toValidationError(settled.error) : undefined
}

/**
 * `tool.execute(input, context?)`: the executor's phases with Mastra's direct-call contract.
 * Order: request context (`startCall`, as on every surface), input, resume data, execute,
 * suspend payload, output.
 * Validation failures come back as `{ error: true, message, validationErrors }`; an error
 * thrown by `execute` is thrown again, as Mastra does (an abort throws the signal's reason).
 * Hooks run as on every surface; `toModelOutput` does not (only a model reads it). An async
 * generator `execute` returns its last yield; `writer` forwards to the caller's, or goes nowhere.
 *
 * Shaped for speed, since agents call tools in loops: the work before and after `execute` is
 * synchronous, and the only async function (`awaitExecute`) is a small one, because an async
 * function saves all its locals at each `await`.
 */
export function executeDirect(tool: AnyTool, input: unknown, context?: ToolCallContextInput | null): Promise<unknown> {
  try {
    const call = context ?? noContext
    const schema = tool.schemas.requestContext
    // Only a schema reads the values: without one, `execute` gets the caller's context as it is.
    const started = startCall(tool, schema ? contextValues(call.requestContext) : noValues)
    if (!started.ok) return Promise.resolve(toValidationError(directFailureDetails(started)))
    const scope = new DirectCallScope(tool, call, schema ? started.requestContext : undefined)
    const { options } = tool
    // Without input hooks the input phase is one synchronous check (a direct call emits no events).
    if (options.onInputStart || options.onInputAvailable) {
      return Promise.resolve(receiveInput(scope, { input })).then((received) => startExecute(scope, call, received.ok ? { ok: true, value: received.value.value } : received))
    }
    return startExecute(scope, call, checkInput(tool.id, tool.schemas.input, input))
  } catch (error) {
    return Promise.reject(error)
  }
}

function startExecute(scope: DirectCallScope, call: ToolCallContextInput, received: Checked<unknown>): Promise<unknown> {
  if (!received.ok) return Promise.resolve(toValidationError(directFailureDetails(received)))
  const { tool } = scope
  let resume: ResumeState | undefined
  if (call.agent || call.workflow || call.resumeData !== undefined || call.suspendPayload !== undefined) {
    const prepared = prepareResume(tool, call)
    if ('error' in prepared) return Promise.resolve(prepared.error)
    resume = prepared.resume
  }
  const executionContext = new ExecutionContext(scope, resume)
  let pending: unknown
  try {
    // No signal to race: call execute straight (runExecute handles a signal and a missing execute).
    const execute = tool.options.execute
    pending = execute && !call.abortSignal ? resultOf(scope, executionContext, execute(received.value, executionContext as never)) : runExecute(scope, executionContext, received.value)
  } catch (error) {
    pending = Promise.reject(error)
  }
  return awaitExecute(scope, executionContext, pending)
}

async function awaitExecute(scope: DirectCallScope, executionContext: ExecutionContext, pending: unknown): Promise<unknown> {
  let result: unknown
  try {
    result = await pending
  } catch (error) {
    ExecutionContext.end(executionContext)
    return directFailure(error)
  }
  ExecutionContext.end(executionContext)
  return finishExecute(scope, executionContext, result)
}

function finishExecute(scope: DirectCallScope, executionContext: ExecutionContext, result: unknown): unknown {
  if (ExecutionContext.suspensionOf(executionContext)) return directSuspension(scope, executionContext)
  const { tool } = scope
  let output = checkOutput(tool.id, tool.schemas.output, result)
  if (!output.ok) {
    output = settleInvalidOutput(scope, result, output)
    if (!output.ok) return outputFailure(failureDetails(output), result)
  }
  const value = output.value
  return tool.options.onOutput ? callOnOutput(scope, value).then(() => value) : value
}
