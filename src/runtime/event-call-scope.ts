import type { EmitEvent, ToolEvent } from '../protocol/tool-event.ts'
import { RequestContext } from '../tool/request-context.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { McpToolContext, ToolObserve } from '../tool/tool-execution-context.ts'
import { createObserve } from './create-observe.ts'
import type { ToolCallScope } from './tool-call-scope.ts'
import type { CallAbort } from './call-abort.ts'

/** What some callers add to an event call's scope. */
export interface EventCallExtras {
  /** Where a transient chunk goes (live readers only); absent, it is dropped. */
  emitTransient?: (event: ToolEvent) => void
  /** The call's abort (HTTP's): its signal made on first read, and `execute` raced against it. */
  abort?: CallAbort
  signal?: AbortSignal
  mcp?: McpToolContext
  trace?: ToolCallScope['trace']
}

/**
 * The scope of every call whose lifecycle is emitted as events (HTTP, MCP, a run's later step).
 * The request context and `observe` are made on first read, since most calls read neither.
 */
export class EventCallScope implements ToolCallScope {
  readonly tool: AnyTool
  readonly runId: string
  readonly toolCallId: string
  readonly messages: unknown[] = []
  readonly emit: EmitEvent
  readonly raceAbort: (<T>(work: T | Promise<T>) => Promise<T>) | undefined
  private readonly values: Record<string, unknown> | undefined
  private readonly extras: EventCallExtras | undefined
  private context: RequestContext | undefined
  private observer: ToolObserve | undefined

  constructor(tool: AnyTool, ids: { runId: string; toolCallId: string }, values: Record<string, unknown> | undefined, emit: EmitEvent, extras?: EventCallExtras) {
    this.tool = tool
    this.runId = ids.runId
    this.toolCallId = ids.toolCallId
    this.emit = emit
    this.values = values
    this.extras = extras
    const abort = extras?.abort
    this.raceAbort = abort ? (work) => abort.race(work) : undefined
  }

  get requestContext(): RequestContext {
    return (this.context ??= new RequestContext(this.values))
  }

  get observe(): ToolObserve {
    return (this.observer ??= createObserve(this.emit, this.trace))
  }

  get signal(): AbortSignal | undefined {
    const extras = this.extras
    return extras?.abort ? extras.abort.signal : extras?.signal
  }

  get trace(): ToolCallScope['trace'] {
    return this.extras?.trace
  }

  get mcp(): McpToolContext | undefined {
    return this.extras?.mcp
  }

  emitTransient(event: ToolEvent): void {
    this.extras?.emitTransient?.(event)
  }
}
