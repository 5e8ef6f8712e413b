import type { ToolEvent } from '../protocol/tool-event.ts'
import type { ValidationIssue } from '../protocol/error-codes.ts'
import { formatValidationErrors, type ValidationError } from '../schema/format-validation-errors.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { AgentToolContext, McpToolContext, ToolCallContextInput, ToolObserve, WorkflowToolContext } from '../tool/tool-execution-context.ts'
import { createObserve } from './create-observe.ts'
import { createRunId, createToolCallId } from './create-id.ts'
import { ExecutionContext, type ResumeState } from './execution-context.ts'
import { isAbortFailure } from './call-abort.ts'
import { callOnOutput, runExecute, settleResult, toExecutionError } from './execute-tool-call.ts'
import { receiveInput } from './receive-input.ts'
import { RequestContext } from '../tool/request-context.ts'
import { ParsedRequestContext, isRequestContextLike, requestContextValues } from './parsed-request-context.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { startCall } from './start-call.ts'
import { checkInput, checkResumeData, directFailureDetails, failureDetails, preview, type Checked } from './validate-call.ts'

function toValidationError(error: { message: string; issues?: ValidationIssue[] }): ValidationError {
  return { error: true, message: error.message, validationErrors: formatValidationErrors(error.issues ?? []) }
}

// No stream: warn and above go to the console, so a failing hook is not silent.
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
 * The scope of a direct call: ids, request context, `observe` and `messages` are made on first read.
 * No `emit`: a direct call has no stream. Plain (not `#`) fields, since it is made on every call.
 */
class DirectCallScope implements ToolCallScope {
  declare readonly tool: AnyTool
  declare readonly emit: undefined
  declare readonly signal: AbortSignal | undefined
  declare readonly mcp: McpToolContext | undefined
  declare readonly writer: ToolCallContextInput['writer']
  /** The values `requestContextSchema` parsed (`startCall`); none without a schema. */
  private declare readonly validatedContext: Record<string, unknown> | undefined
  private declare readonly call: ToolCallContextInput
  private declare lazy: LazyParts | undefined

  constructor(tool: AnyTool, call: ToolCallContextInput, validatedContext: Record<string, unknown> | undefined) {
    this.tool = tool
    this.call = call
    this.signal = call.abortSignal
    this.mcp = call.mcp
    this.writer = call.writer
    this.validatedContext = validatedContext
    this.lazy = undefined
  }

  private get parts(): LazyParts {
    return (this.lazy ??= {})
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
   * The caller's `RequestContext` as it is; with a `requestContextSchema`, a view of its parsed
   * values that writes through to it. A plain object becomes a `RequestContext`.
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

/** The resume state a direct call passed (agent's, workflow's or flat), `resumeData` checked. */
function resumeOf(tool: AnyTool, call: ToolCallContextInput): ValidationError | ResumeState | undefined {
  const { agent, workflow } = call
  const resumeData = agent?.resumeData ?? workflow?.resumeData ?? call.resumeData
  const suspendPayload = agent?.suspendPayload ?? workflow?.suspendPayload ?? call.suspendPayload
  if (resumeData != null && tool.schemas.resume) {
    const checked = checkResumeData(tool.id, tool.schemas.resume, resumeData)
    return checked.ok ? { resumeData: checked.value, suspendPayload } : toValidationError(directFailureDetails(checked))
  }
  return resumeData !== undefined || suspendPayload !== undefined ? { resumeData, suspendPayload } : undefined
}

/**
 * `tool.execute(input, context?)` with Mastra's direct-call contract. Order: request context
 * (`startCall`; when it fails, bad input is reported instead, as Mastra does), input, resume data,
 * execute, suspend payload, output. A validation failure is returned as `{ error: true, message, validationErrors }`; an error `execute` throws is thrown
 * again (an abort throws the signal's reason). Hooks run; `toModelOutput` does not.
 * Synchronous but for one small async function (`awaitExecute`): see BENCHMARKS.md, `core`.
 */
export function executeDirect(tool: AnyTool, input: unknown, context?: ToolCallContextInput | null): Promise<unknown> {
  try {
    const call = context ?? noContext
    const schema = tool.schemas.requestContext
    // Only a schema reads the values: without one, `execute` gets the caller's context as it is.
    const started = startCall(tool, schema ? contextValues(call.requestContext) : noValues)
    if (!started.ok) {
      // Mastra's order for a direct call: bad input is reported before a bad request context (HTTP and MCP keep SPEC §2's).
      const checked = checkInput(tool.id, tool.schemas.input, input)
      return Promise.resolve(toValidationError(directFailureDetails(checked.ok ? started : checked)))
    }
    const scope = new DirectCallScope(tool, call, schema ? started.requestContext : undefined)
    const { options } = tool
    if (options.onInputStart || options.onInputAvailable) {
      return receiveInput(scope, { input }).then((received) =>
        startExecute(scope, call, received.ok ? { ok: true, value: received.value.value } : received),
      )
    }
    return startExecute(scope, call, checkInput(tool.id, tool.schemas.input, input))
  } catch (error) {
    return Promise.reject(error)
  }
}

function startExecute(scope: DirectCallScope, call: ToolCallContextInput, received: Checked<unknown>): Promise<unknown> {
  if (!received.ok) return Promise.resolve(toValidationError(directFailureDetails(received)))
  const resumes = call.agent || call.workflow || call.resumeData !== undefined || call.suspendPayload !== undefined
  const resume = resumes ? resumeOf(scope.tool, call) : undefined
  if (resume && 'error' in resume) return Promise.resolve(resume)
  return awaitExecute(scope, new ExecutionContext(scope, resume), received.value)
}

async function awaitExecute(scope: DirectCallScope, executionContext: ExecutionContext, input: unknown): Promise<unknown> {
  let result: unknown
  try {
    result = await runExecute(scope, executionContext, input)
  } catch (error) {
    ExecutionContext.end(executionContext)
    const failure = toExecutionError(error)
    if (failure.code !== 'EXECUTION_FAILED') return toValidationError(failure)
    throw isAbortFailure(failure) ? failure.cause : error
  }
  const settled = settleResult(scope, executionContext, result)
  if ('status' in settled) return settled.status === 'failed' ? toValidationError(settled.error) : undefined
  if (!settled.ok) {
    // The caller is the tool's own code: it sees what `execute` returned, as in Mastra (HTTP and MCP do not).
    const failure = toValidationError(failureDetails(settled))
    failure.message = `${failure.message}\n\nReturned output: ${preview(result)}`
    return failure
  }
  const value = settled.value
  return scope.tool.options.onOutput ? callOnOutput(scope, value).then(() => value) : value
}
