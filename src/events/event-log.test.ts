import { describe, expect, it } from 'vitest'
import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import { EventLog } from './event-log.ts'

const finish = (reason: 'stop' | 'error'): ToolEvent => ({ type: 'finish', finishReason: reason })
const start: ToolEvent = { type: 'start', messageMetadata: { runId: 'r', toolCallId: 'c' } }

async function readAll(log: EventLog): Promise<SequencedEvent[]> {
  const read: SequencedEvent[] = []
  for await (const entry of log.read()) read.push(entry)
  return read
}

describe('EventLog', () => {
  it('numbers events from firstSeq, for every reader, and keeps them as emitted', async () => {
    const log = new EventLog(5)
    expect(log.lastSeq()).toBe(4)
    log.push(start)
    log.push(finish('stop'))
    log.close()
    expect(log.events).toEqual([start, finish('stop')])
    expect(log.lastSeq()).toBe(6)
    const expected = [
      { seq: 5, event: start },
      { seq: 6, event: finish('stop') },
    ]
    expect(await readAll(log)).toEqual(expected)
    expect(await readAll(log)).toEqual(expected)
  })

  it('readers that started early get later events live, and all of them end at close', async () => {
    const log = new EventLog()
    const first = readAll(log)
    const second = readAll(log)
    await Promise.resolve()
    const emit = log.push // handed on unbound, as an emit callback
    emit(start)
    await new Promise((resolve) => setTimeout(resolve, 1))
    emit(finish('error'))
    log.close()
    const expected = [
      { seq: 1, event: start },
      { seq: 2, event: finish('error') },
    ]
    expect(await first).toEqual(expected)
    expect(await second).toEqual(expected)
  })
})

describe('EventLog: transient events', () => {
  const note = (n: number): ToolEvent => ({ type: 'data-note', data: n, transient: true }) as never

  it('reaches readers in its place, numbered as the event before it, and is not among the stored events', async () => {
    const log = new EventLog()
    const early = readAll(log)
    log.push(start)
    log.pushTransient(note(1))
    log.push(finish('stop'))
    log.close()
    log.pushTransient(note(2)) // after close: nobody is reading, nothing is kept
    const expected = [
      { seq: 1, event: start },
      { seq: 1, event: note(1) },
      { seq: 2, event: finish('stop') },
    ]
    expect(await early).toEqual(expected)
    expect(await readAll(log)).toEqual(expected)
    expect(log.events).toEqual([start, finish('stop')])
    expect(log.lastSeq()).toBe(2)
  })
})
