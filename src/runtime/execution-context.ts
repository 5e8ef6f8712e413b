import type { ToolrouteError } from '../errors/toolroute-error.ts'
import type { AgentToolContext, SuspendOptions, ToolExecutionContext, ToolStream, WorkflowToolContext } from '../tool/tool-execution-context.ts'
import { createToolStream } from './create-tool-stream.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import { checkSuspendPayload } from './validate-call.ts'

/** What a resumed execution is told about the suspension it resumes. */
export interface ResumeState {
  resumeData: unknown
  suspendPayload: unknown
}

/** What `suspend()` recorded during one execution. */
export type Suspension = { ok: true; payload: unknown } | { ok: false; error: ToolrouteError }

interface LazyParts {
  signal?: AbortSignal
  agent?: AgentToolContext<unknown, unknown> | null
  workflow?: WorkflowToolContext<unknown, unknown>
  suspend?: (payload: unknown, suspendOptions?: SuspendOptions) => Promise<void>
  suspension?: Suspension
  writer?: ToolStream
}

// State under symbols, not `#private` fields (whose initializer runs per instance): made on every call.
const scopeKey = Symbol('toolroute.scope')
const resumeKey = Symbol('toolroute.resume')
const lazyKey = Symbol('toolroute.lazy')
const endedKey = Symbol('toolroute.ended')

/**
 * The second argument of `execute`: getters computed on first read, so a call that reads no
 * `abortSignal` or `agent` pays for neither. Spreading it does not copy the getters.
 */
export class ExecutionContext implements ToolExecutionContext<unknown, unknown, any> {
  declare readonly [scopeKey]: ToolCallScope
  declare readonly [resumeKey]: ResumeState | undefined
  declare [lazyKey]: LazyParts | undefined
  // Not in the lazy slot: ending a call that read nothing allocates nothing.
  declare [endedKey]: boolean

  constructor(scope: ToolCallScope, resume?: ResumeState) {
    this[scopeKey] = scope
    this[resumeKey] = resume
    this[lazyKey] = undefined
    this[endedKey] = false
  }

  get requestContext() {
    return this[scopeKey].requestContext
  }

  /** The caller's signal, or (when nothing can abort the call) one that never aborts. */
  get abortSignal(): AbortSignal {
    return this[scopeKey].signal ?? (partsOf(this).signal ??= new AbortController().signal)
  }

  get observe() {
    return this[scopeKey].observe
  }

  get runId(): string {
    return this[scopeKey].runId
  }

  get mcp() {
    return this[scopeKey].mcp
  }

  /** The caller's workflow context, its `suspend` the context's own (validated, recorded). */
  get workflow(): WorkflowToolContext<unknown, unknown> | undefined {
    const parts = partsOf(this)
    if (parts.workflow) return parts.workflow
    const workflow = this[scopeKey].workflow
    return workflow && (parts.workflow = { ...workflow, suspend: this.suspend })
  }

  get resumeData(): unknown {
    return this[resumeKey]?.resumeData
  }

  get suspendPayload(): unknown {
    return this[resumeKey]?.suspendPayload
  }

  /** Mastra's `ToolStream`: made on first read, quiet once the execution has ended. */
  get writer(): ToolStream {
    return (partsOf(this).writer ??= createToolStream(this[scopeKey], () => this[endedKey]))
  }

  /** The same function as `agent.suspend`, bound, so it can be destructured. */
  get suspend(): (payload: unknown, suspendOptions?: SuspendOptions) => Promise<void> {
    return (partsOf(this).suspend ??= (payload, suspendOptions) => suspendWith(this, payload, suspendOptions))
  }

  /** The caller's agent fields with `agentId`, `toolCallId`, `messages`, `suspend`; `undefined` without an agent. */
  get agent(): AgentToolContext<unknown, unknown> | undefined {
    const parts = partsOf(this)
    if (parts.agent !== undefined) return parts.agent ?? undefined
    const scope = this[scopeKey]
    const given = scope.agent
    if (given === null) {
      parts.agent = null
      return undefined
    }
    const resume = this[resumeKey]
    return (parts.agent = {
      ...given,
      agentId: given?.agentId ?? '',
      toolCallId: scope.toolCallId,
      messages: scope.messages,
      suspend: this.suspend,
      ...(resume && { resumeData: resume.resumeData, suspendPayload: resume.suspendPayload }),
    })
  }

  /** Marks the execution over: the writer and later yields emit nothing, so nothing lands after `finish`. */
  static end(context: ExecutionContext): void {
    context[endedKey] = true
  }

  static hasEnded(context: ExecutionContext): boolean {
    return context[endedKey]
  }

  /** What `suspend()` recorded, for the executor once `execute` returned. */
  static suspensionOf(context: ExecutionContext): Suspension | undefined {
    return context[lazyKey]?.suspension
  }
}

function partsOf(context: ExecutionContext): LazyParts {
  return (context[lazyKey] ??= {})
}

// Validated when `suspend()` is called, so the caller's own callback only sees a valid payload.
async function suspendWith(context: ExecutionContext, payload: unknown, suspendOptions: SuspendOptions | undefined): Promise<void> {
  const { tool, onSuspend } = context[scopeKey]
  const parts = partsOf(context)
  const checked = checkSuspendPayload(tool.id, tool.schemas.suspend, payload)
  if (!checked.ok) {
    parts.suspension = { ok: false, error: checked.error }
    return
  }
  parts.suspension = { ok: true, payload: checked.value }
  // Both arguments, as Mastra passes them (a Mastra agent reads `resumeLabel` from the options).
  await onSuspend?.(checked.value, suspendOptions)
}
