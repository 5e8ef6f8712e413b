import type { ToolrouteError } from '../errors/toolroute-error.ts'
import type { AgentToolContext, ToolExecutionContext } from '../tool/tool-types.ts'
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
  agent?: AgentToolContext<unknown, unknown>
  suspend?: (payload: unknown) => Promise<void>
  suspension?: Suspension
}

/**
 * The second argument of `execute`. Its fields are getters computed on first read, so a call
 * that never reads `abortSignal` or `agent` never pays for an `AbortController` or a random
 * tool call id (the direct-call hot path reads neither). Destructuring works as on a plain
 * object; spreading it does not copy the getters, so pass the context itself along.
 */
export class ExecutionContext implements ToolExecutionContext<unknown, unknown, any> {
  readonly #scope: ToolCallScope
  readonly #resume: ResumeState | undefined
  // Everything made on first read shares one slot: fewer private fields, a cheaper object per call.
  #lazy: LazyParts | undefined

  constructor(scope: ToolCallScope, resume?: ResumeState) {
    this.#scope = scope
    this.#resume = resume
  }

  get #parts(): LazyParts {
    return (this.#lazy ??= {})
  }

  get requestContext() {
    return this.#scope.requestContext
  }

  /** The caller's signal, or (when nothing can abort the call) one that never aborts. */
  get abortSignal(): AbortSignal {
    return this.#scope.signal ?? (this.#parts.signal ??= new AbortController().signal)
  }

  get observe() {
    return this.#scope.observe
  }

  get runId(): string {
    return this.#scope.runId
  }

  get mcp() {
    return this.#scope.mcp
  }

  get workflow() {
    return this.#scope.workflow
  }

  get resumeData(): unknown {
    return this.#resume?.resumeData
  }

  get suspendPayload(): unknown {
    return this.#resume?.suspendPayload
  }

  /** The same function as `agent.suspend`, bound, so it can be destructured. */
  get suspend(): (payload: unknown) => Promise<void> {
    return (this.#parts.suspend ??= (payload) => this.#suspendWith(payload))
  }

  get agent(): AgentToolContext<unknown, unknown> {
    const parts = this.#parts
    if (parts.agent) return parts.agent
    const resume = this.#resume
    const agent = { toolCallId: this.#scope.toolCallId, messages: this.#scope.messages, suspend: this.suspend }
    return (parts.agent = resume ? { ...agent, resumeData: resume.resumeData, suspendPayload: resume.suspendPayload } : agent)
  }

  // The payload is validated when `suspend()` is called, so the caller's own suspend callback
  // (a Mastra agent, a direct caller) only ever sees a payload that matches `suspendSchema`.
  async #suspendWith(payload: unknown): Promise<void> {
    const { tool, onSuspend } = this.#scope
    const checked = checkSuspendPayload(tool.id, tool.schemas.suspend, payload)
    if (!checked.ok) {
      this.#parts.suspension = { ok: false, error: checked.error }
      return
    }
    this.#parts.suspension = { ok: true, payload: checked.value }
    await onSuspend?.(checked.value)
  }

  /** What `suspend()` recorded on this context, for the executor once `execute` returned. */
  static suspensionOf(context: ExecutionContext): Suspension | undefined {
    return context.#lazy?.suspension
  }
}
