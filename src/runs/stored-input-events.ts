import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import type { RunRecord } from './run-record.ts'

/**
 * A run's input is stored once, in its record; its first step's events repeat it (the body's text
 * in `tool-input-delta`s, the value in `tool-input-available`). When they hold exactly the record's
 * input as JSON they are stored as references (`[start, end]` of its text for a delta, `'value'`),
 * rebuilt when read, so a replay is byte for byte the stream it was; anything else is stored as it
 * came. Each stays a row of its own, so sequence numbers do not move. Only `open` writes input
 * events, so no other event carries the field.
 */
type InputReference = { '~input'?: [number, number] | 'value' }

/** The events of a run's first step as stored: input payloads that repeat the record's input become references. */
export function packInputEvents(run: RunRecord, events: readonly ToolEvent[]): ToolEvent[] {
  const deltas = events.filter((event) => event.type === 'tool-input-delta' && event.toolCallId === run.toolCallId)
  const available = events.find((event) => event.type === 'tool-input-available' && event.toolCallId === run.toolCallId && event.toolName === run.toolId)
  if ((deltas.length === 0 && !available) || run.input === undefined) return [...events]
  const whole = JSON.stringify(run.input)
  const packDeltas = deltas.length > 0 && deltas.map((event) => (event as { inputTextDelta: string }).inputTextDelta).join('') === whole
  const packValue = available !== undefined && JSON.stringify((available as { input: unknown }).input) === whole
  let offset = 0
  return events.map((event): ToolEvent => {
    if (packDeltas && event.type === 'tool-input-delta' && event.toolCallId === run.toolCallId) {
      const range: [number, number] = [offset, (offset += event.inputTextDelta.length)]
      return { type: event.type, '~input': range } as ToolEvent & InputReference
    }
    if (packValue && event === available) return { type: event.type, '~input': 'value' } as ToolEvent & InputReference
    return event
  })
}

/** Stored events as they were emitted: references rebuilt from the record's input (see `packInputEvents`). */
export function unpackInputEvents(run: RunRecord, entries: SequencedEvent[]): SequencedEvent[] {
  if (!entries.some((entry) => (entry.event as InputReference)['~input'] !== undefined)) return entries
  const text = JSON.stringify(run.input)
  return entries.map((entry) => {
    const reference = (entry.event as InputReference)['~input']
    const { event } = entry
    if (reference === undefined) return entry
    if (event.type === 'tool-input-delta' && Array.isArray(reference)) {
      return { seq: entry.seq, event: { type: event.type, toolCallId: run.toolCallId, inputTextDelta: text.slice(reference[0], reference[1]) } }
    }
    if (event.type === 'tool-input-available' && reference === 'value') {
      return { seq: entry.seq, event: { type: event.type, toolCallId: run.toolCallId, toolName: run.toolId, input: JSON.parse(text) as unknown } }
    }
    return entry
  })
}
