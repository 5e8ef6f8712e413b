import type { EmitEvent, ToolEvent } from '../protocol/tool-event.ts'
import { CallAbort } from '../runtime/call-abort.ts'
import { createObserve } from '../runtime/create-observe.ts'
import { RequestContext } from '../tool/request-context.ts'
import type { ToolCallScope } from '../runtime/tool-call-scope.ts'
import type { AnyTool, ToolObserve } from '../tool/tool-types.ts'
import type { EventLog } from '../events/event-log.ts'

const callerGone = () => new Error('The caller disconnected')

/**
 * The scope of a call made by an HTTP request: its events go to the request's log, and the
 * request context, `observe` and the abort signal are made on first read, since most calls
 * read none of them. A class with getters on its prototype, not an object literal with
 * getters, which V8 builds on a slow path: this object is made on every call.
 */
export class RequestCallScope implements ToolCallScope {
  declare readonly tool: AnyTool
  declare readonly runId: string
  declare readonly toolCallId: string
  declare readonly messages: unknown[]
  /** The caller leaving (its request's signal, once read) aborts the call; so may its stream. */
  declare readonly abort: CallAbort
  /**
   * `data-tool-suspended` names a run to resume: it is held back until that run is stored, so
   * a caller acting on it at once never meets RUN_NOT_FOUND. It is the step's last event.
   */
  declare readonly held: ToolEvent[]
  declare readonly emit: EmitEvent
  private declare readonly log: EventLog
  private declare readonly values: Record<string, unknown>
  private declare context: RequestContext | undefined
  private declare observer: ToolObserve | undefined

  constructor(tool: AnyTool, ids: { runId: string; toolCallId: string }, values: Record<string, unknown>, log: EventLog, request: Request) {
    this.tool = tool
    this.runId = ids.runId
    this.toolCallId = ids.toolCallId
    this.messages = []
    this.values = values
    this.log = log
    this.abort = new CallAbort(request, callerGone)
    const held: ToolEvent[] = (this.held = [])
    // An own arrow, not a method: the executor destructures `emit` from the scope.
    this.emit = (event) => void (event.type === 'data-tool-suspended' ? held.push(event) : log.push(event))
    this.context = undefined
    this.observer = undefined
  }

  get requestContext(): RequestContext {
    return (this.context ??= new RequestContext(this.values))
  }

  get observe(): ToolObserve {
    return (this.observer ??= createObserve(this.emit))
  }

  /** A transient chunk goes to this request's live readers only: it is never stored. */
  emitTransient(event: ToolEvent): void {
    this.log.pushTransient(event)
  }

  get signal(): AbortSignal {
    return this.abort.signal
  }

  raceAbort<T>(work: T | Promise<T>): Promise<T> {
    return this.abort.race(work)
  }

  /** Aborts the call because its caller left (an SSE stream cancelled). */
  callerLeft(): void {
    this.abort.abort(callerGone())
  }
}
