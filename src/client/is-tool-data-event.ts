import type { ToolDataEvent, ToolEvent } from '../events/tool-event.ts'

/**
 * Whether an event is a chunk the tool wrote with `writer.custom`, of the given `type` when one
 * is named: `if (isToolDataEvent(event, 'data-progress')) show(event.data)`. The same test as the
 * server's (events/tool-event.ts), written here so the client bundles nothing of the server.
 */
export function isToolDataEvent(event: ToolEvent, type?: `data-${string}`): event is ToolDataEvent {
  const name: string = event.type
  return name.startsWith('data-') && !name.startsWith('data-tool-') && (type === undefined || name === type)
}
