import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'

/**
 * The events of one request's call, numbered from where the run's stored log will put them,
 * readable live by any number of consumers. A `SequencedEvent` is made only for a reader.
 */
export class EventLog {
  /** The events so far; the first is numbered `firstSeq`. */
  readonly events: ToolEvent[] = []
  readonly #firstSeq: number
  #closed = false
  #wake: (() => void) | undefined
  /** Transient chunks (`writer.custom({ transient: true })`), each with how many events preceded it. */
  #transients: { index: number; event: ToolEvent }[] | undefined

  constructor(firstSeq = 1) {
    this.#firstSeq = firstSeq
  }

  /** Appends an event. An own arrow, so it can be handed on as an `emit` callback. */
  readonly push = (event: ToolEvent): void => {
    this.events.push(event)
    this.#signal()
  }

  /**
   * Adds an event for live readers only: not in `events` (what gets stored), and read with the
   * number of the event before it, so reconnecting from it loses nothing stored.
   */
  pushTransient(event: ToolEvent): void {
    if (this.#closed) return
    ;(this.#transients ??= []).push({ index: this.events.length, event })
    this.#signal()
  }

  /** No more events: readers finish once they have read the last one. */
  close(): void {
    this.#closed = true
    this.#signal()
  }

  /** The number of the last event (`firstSeq - 1` while there is none). */
  lastSeq(): number {
    return this.#firstSeq + this.events.length - 1
  }

  /** Every event from the start, then each new one, until `close()`. */
  async *read(): AsyncGenerator<SequencedEvent> {
    let index = 0
    let transient = 0
    while (true) {
      while (index < this.events.length || transient < (this.#transients?.length ?? 0)) {
        const next = this.#transients?.[transient]
        if (next && next.index <= index) {
          transient += 1
          yield { seq: this.#firstSeq + index - 1, event: next.event }
          continue
        }
        const event = this.events[index]!
        yield { seq: this.#firstSeq + index++, event }
      }
      if (this.#closed) return
      await new Promise<void>((resolve) => {
        const previous = this.#wake
        this.#wake = () => {
          previous?.()
          resolve()
        }
      })
    }
  }

  #signal(): void {
    const wake = this.#wake
    this.#wake = undefined
    wake?.()
  }
}
