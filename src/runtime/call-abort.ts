import { ToolrouteError } from '../errors/toolroute-error.ts'

const abortMarker = Symbol.for('toolroute.abort')
const noReason = () => undefined

/** The executor's "the call was aborted" failure: `EXECUTION_FAILED`, its `cause` the abort reason. */
export function abortFailure(reason: unknown): ToolrouteError {
  const message = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'The call was aborted'
  return Object.assign(new ToolrouteError('EXECUTION_FAILED', message, { cause: reason }), { [abortMarker]: true })
}

/** Whether an error is the executor's own abort failure (see `abortFailure`). */
export function isAbortFailure(error: unknown): error is ToolrouteError {
  return ToolrouteError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[abortMarker] === true
}

/**
 * The abort side of one call, free until used: in workerd an `AbortController` and its listeners
 * are costly (BENCHMARKS.md, isolate) and most tools never read their signal. So the signal is
 * made on first read, and the race against an abort is a plain promise.
 */
export class CallAbort {
  #controller: AbortController | undefined
  #aborted = false
  #reason: unknown
  #rejectRace: ((error: ToolrouteError) => void) | undefined
  #upstream: AbortSignal | undefined
  #onUpstreamAbort: (() => void) | undefined
  readonly #source: { readonly signal?: AbortSignal | null } | undefined
  readonly #upstreamReason: () => unknown

  /**
   * @param source whose `signal` to follow once ours is read (in workerd `request.signal` builds an object)
   * @param upstreamReason the reason the call sees when that signal aborts
   */
  constructor(source?: { readonly signal?: AbortSignal | null }, upstreamReason: () => unknown = noReason) {
    this.#source = source
    this.#upstreamReason = upstreamReason
  }

  /** The call's signal, made on first read. */
  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal
    const controller = (this.#controller = new AbortController())
    if (this.#aborted) {
      controller.abort(this.#reason)
    } else {
      const upstream = this.#source?.signal
      if (upstream?.aborted) {
        this.abort(this.#upstreamReason())
      } else if (upstream) {
        this.#upstream = upstream
        this.#onUpstreamAbort = () => this.abort(this.#upstreamReason())
        upstream.addEventListener('abort', this.#onUpstreamAbort, { once: true })
      }
    }
    return controller.signal
  }

  get aborted(): boolean {
    return this.#aborted
  }

  /** Aborts the call (by default with the upstream's reason): its signal, if read, and the pending race. Later calls do nothing. */
  abort(reason: unknown = this.#upstreamReason()): void {
    if (this.#aborted) return
    this.#aborted = true
    this.#reason = reason
    this.#controller?.abort(reason)
    this.#rejectRace?.(abortFailure(reason))
    this.release()
  }

  /** `work`, or `abortFailure` as soon as the call aborts: a tool that ignores its signal still releases its caller. */
  race<T>(work: T | Promise<T>): Promise<T> {
    if (this.#aborted) return Promise.reject(abortFailure(this.#reason))
    return new Promise<T>((resolve, reject) => {
      this.#rejectRace = reject
      Promise.resolve(work).then(resolve, reject)
    })
  }

  /** Stops following `upstream` (the call is over; a late disconnect must not abort it). */
  release(): void {
    if (this.#upstream) this.#upstream.removeEventListener('abort', this.#onUpstreamAbort!)
    this.#upstream = undefined
  }
}
