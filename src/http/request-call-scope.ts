import type { ToolEvent } from '../protocol/tool-event.ts'
import { CallAbort } from '../runtime/call-abort.ts'
import { EventCallScope } from '../runtime/event-call-scope.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { EventLog } from '../events/event-log.ts'

const callerGone = () => new Error('The caller disconnected')

/** The scope of an HTTP request's call: events go to the request's log; the abort signal is made on first read. */
export class RequestCallScope extends EventCallScope {
  /** The caller leaving (its request's signal, once read) aborts the call; so may its stream. */
  readonly abort: CallAbort
  /** `data-tool-suspended`, held back until its run is stored, so a caller acting on it never meets RUN_NOT_FOUND. */
  readonly held: ToolEvent[]

  constructor(tool: AnyTool, ids: { runId: string; toolCallId: string }, values: Record<string, unknown>, log: EventLog, request: Request) {
    const held: ToolEvent[] = []
    // An own arrow, not a method: the executor destructures `emit` from the scope. A transient
    // chunk goes to this request's live readers only: it is never stored.
    const emit = (event: ToolEvent) => void (event.type === 'data-tool-suspended' ? held.push(event) : log.push(event))
    super(tool, ids, values, emit, { emitTransient: (event) => log.pushTransient(event) })
    this.held = held
    this.abort = new CallAbort(request, callerGone)
  }

  override get signal(): AbortSignal {
    return this.abort.signal
  }

  raceAbort<T>(work: T | Promise<T>): Promise<T> {
    return this.abort.race(work)
  }

  callerLeft(): void {
    this.abort.abort(callerGone())
  }
}
