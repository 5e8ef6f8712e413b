import { isToolDataEvent, type ToolEvent } from '../protocol/tool-event.ts'

/** A `notifications/progress` as toolroute sends it. */
export type ProgressNotification = { method: 'notifications/progress'; params: Record<string, unknown> }

function streamedValue(event: ToolEvent): { value: unknown } | undefined {
  if (event.type === 'data-tool-output') return { value: event.data.output }
  if (event.type === 'tool-output-available') return event.preliminary ? { value: event.output } : undefined
  return isToolDataEvent(event) ? { value: event.data } : undefined
}

/** SPEC §5 "Progress": each value a call with a `progressToken` streams is a `notifications/progress`, `message` the value as text, `_meta["toolroute/event"]` the event (beside `meta`, e.g. its task). */
export function createProgressSender(
  send: (notification: ProgressNotification) => Promise<void>,
  progressToken: string | number,
  meta: Record<string, unknown> = {},
): (event: ToolEvent) => void {
  let progress = 0
  return (event) => {
    const streamed = streamedValue(event)
    if (!streamed) return
    progress += 1
    const message = typeof streamed.value === 'string' ? streamed.value : (JSON.stringify(streamed.value) ?? '')
    send({ method: 'notifications/progress', params: { progressToken, progress, message, _meta: { ...meta, 'toolroute/event': event } } })
      // A client that went away misses its progress; the call itself goes on.
      .catch(() => {})
  }
}
