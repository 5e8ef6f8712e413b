import type { SequencedEvent, ToolEvent } from '../events/tool-event.ts'

/**
 * The events of one request, numbered from where the run's stored log will put them, readable
 * live by any number of consumers. A call's first step lives here until it is stored.
 */
export interface EventLog {
  readonly events: SequencedEvent[]
  push(event: ToolEvent): void
  close(): void
  /** Every event from the start, then each new one, until `close()`. */
  read(): AsyncIterable<SequencedEvent>
  lastSeq(): number
}

export function createEventLog(firstSeq = 1): EventLog {
  const events: SequencedEvent[] = []
  let closed = false
  let wake: (() => void) | undefined
  const signal = () => {
    wake?.()
    wake = undefined
  }
  return {
    events,
    push(event) {
      events.push({ seq: firstSeq + events.length, event })
      signal()
    },
    close() {
      closed = true
      signal()
    },
    lastSeq: () => firstSeq + events.length - 1,
    async *read() {
      let index = 0
      while (true) {
        while (index < events.length) yield events[index++]!
        if (closed) return
        await new Promise<void>((resolve) => {
          const previous = wake
          wake = () => {
            previous?.()
            resolve()
          }
        })
      }
    },
  }
}
