import type { ElicitOptions, ElicitRequestParams, ElicitResult } from '../tool/tool-execution-context.ts'

/** Where a running call stands: it finished with a value, or it asks a question and waits. */
export type CallTurn<T> =
  | { kind: 'done'; value: T }
  | { kind: 'failed'; error: unknown }
  | { kind: 'asked'; questionId: string; question: ElicitRequestParams; key?: string }

interface Parked<T> {
  /** What the call's requests share (its progress sink). */
  shared: unknown
  answer: (result: ElicitResult) => void
  next: () => Promise<CallTurn<T>>
  abort: AbortController
  timer: ReturnType<typeof setTimeout>
}

/** Calls that asked a question mid-`execute`, waiting in this isolate for the retry with the answer so nothing before it runs again. A retry elsewhere, or after `timeoutMs`, finds nothing (`suspend()` survives that). */
export class ParkedCalls<T> {
  readonly #parked = new Map<string, Parked<T>>()
  readonly timeoutMs: number
  /** Starts an execution where it can outlive its request (a Durable Object: in its alarm handler). */
  readonly launch: (work: () => Promise<void>) => void

  constructor(timeoutMs: number, launch: (work: () => Promise<void>) => void = (work) => void work()) {
    this.timeoutMs = timeoutMs
    this.launch = launch
  }

  /** Starts `run`, whose `ask` parks it: `turn` is its result or first question, `execution` its end. */
  start(run: (ask: (question: ElicitRequestParams, options?: ElicitOptions) => Promise<ElicitResult>, signal: AbortSignal) => Promise<T>, shared?: unknown): { turn: Promise<CallTurn<T>>; execution: Promise<void>; abort: AbortController } {
    const abort = new AbortController()
    let turn!: (value: CallTurn<T>) => void
    let waiting = new Promise<CallTurn<T>>((resolve) => (turn = resolve))
    const ask = (question: ElicitRequestParams, options?: ElicitOptions) =>
      new Promise<ElicitResult>((resolve) => {
        const questionId = crypto.randomUUID()
        const timer = setTimeout(() => {
          if (this.#parked.delete(questionId)) abort.abort(new Error('The MCP client did not answer in time'))
        }, this.timeoutMs)
        this.#parked.set(questionId, {
          shared,
          abort,
          timer,
          answer: resolve,
          next: () => (waiting = new Promise<CallTurn<T>>((resolveTurn) => (turn = resolveTurn))),
        })
        turn({ kind: 'asked', questionId, question, ...(options?.key ? { key: options.key } : {}) })
      })
    let finished!: () => void
    const execution = new Promise<void>((resolve) => (finished = resolve))
    this.launch(() =>
      run(ask, abort.signal)
        .then(
          (value) => turn({ kind: 'done', value }),
          (error: unknown) => turn({ kind: 'failed', error }),
        )
        .finally(finished),
    )
    return { turn: waiting, execution, abort }
  }

  /** Gives a parked call its answer: its next turn, or `undefined` when no call waits under that id. */
  answer(questionId: string, result: ElicitResult): { turn: Promise<CallTurn<T>>; abort: AbortController; shared: unknown } | undefined {
    const parked = this.#parked.get(questionId)
    if (!parked) return undefined
    this.#parked.delete(questionId)
    clearTimeout(parked.timer)
    const turn = parked.next()
    parked.answer(result)
    return { turn, abort: parked.abort, shared: parked.shared }
  }

  /** Waits for a call's next turn for one request, whose cancel meanwhile stops the call (and no longer once it ends). */
  static async turnFor<T>(call: { turn: Promise<CallTurn<T>>; abort: AbortController }, signal: AbortSignal): Promise<CallTurn<T>> {
    const cancel = () => call.abort.abort(signal.reason)
    signal.addEventListener('abort', cancel, { once: true })
    try {
      return await call.turn
    } finally {
      signal.removeEventListener('abort', cancel)
    }
  }
}
