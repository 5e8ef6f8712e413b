/**
 * The playground's element helper, and how it reads what the app answers: a tool's badges, an
 * event's line in the timeline, a run's status from its events, the SSE frames of a response. Like
 * `playgroundScript`, it ships as the text of this function, so it is self-contained (no imports at
 * run time, no module constants); the page calls it with the document and the script's JSON helper.
 */
export function playgroundViews(doc: any, json: (value: unknown, space?: number) => string) {
  type ToolEvent = { type: string; [key: string]: any }

  /** A DOM element: `on*` props listen, `value`/`checked` set properties, the rest are attributes. */
  const h = (tag: string, props: Record<string, any> = {}, ...children: unknown[]): any => {
    const node = doc.createElement(tag)
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === false || value === null) continue
      if (key.startsWith('on')) node.addEventListener(key.slice(2), value)
      else if (key === 'value' || key === 'checked') node[key] = value
      else node.setAttribute(key, value === true ? '' : String(value))
    }
    node.append(...children.flat(9).filter((child) => child !== undefined && child !== null && child !== false))
    return node
  }

  const badges = (descriptor: any): string[] => {
    const annotations = descriptor.mcp?.annotations ?? {}
    return [
      descriptor.requireApproval ? 'approval' : '',
      descriptor.background?.enabled ? 'background' : '',
      descriptor.resumeSchema ? 'suspends' : '',
      annotations.readOnlyHint ? 'read-only' : '',
      annotations.destructiveHint ? 'destructive' : '',
      annotations.idempotentHint ? 'idempotent' : '',
      annotations.openWorldHint ? 'open-world' : '',
    ].filter(Boolean)
  }

  /** An event as its item shows it: without its type and the ids the run's heading already gives. */
  const summary = (event: ToolEvent): string => {
    const { type, toolCallId, ...rest } = event
    if (rest.data && typeof rest.data === 'object' && !Array.isArray(rest.data)) {
      const { runId, toolCallId, ...data } = rest.data
      rest.data = data
    }
    if (type === 'tool-input-delta') return event.inputTextDelta
    if (type === 'data-tool-log') return `${event.data.level}: ${event.data.message}${event.data.data === undefined ? '' : ` ${json(event.data.data)}`}`
    if (type === 'data-tool-attempt') return `attempt ${event.data.attempt} of ${event.data.of}`
    if (type === 'data-tool-span') return `${event.data.name} ${event.data.phase}${event.data.durationMs === undefined ? '' : ` ${event.data.durationMs} ms`}${event.data.status ? ` ${event.data.status}` : ''}`
    if (Object.keys(rest).length === 0) return ''
    const line = json(rest)
    return line.length <= 96 ? line : json(rest, 2)
  }

  /** What a run's events say it is now: the last one that changes its state wins. */
  const statusOf = (events: { event: ToolEvent }[], fallback: string): string => {
    let status = fallback
    for (const { event } of events) {
      if (event.type === 'tool-approval-request') status = 'approval-required'
      else if (event.type === 'data-tool-suspended') status = 'suspended'
      else if (event.type === 'tool-output-available' && !event.preliminary) status = 'completed'
      else if (event.type === 'tool-output-error' || event.type === 'tool-input-error') status = 'failed'
      else if (event.type === 'tool-output-denied') status = 'declined'
      // An answer to approval is `tool-approval-response`, or its data part for AI SDK 6 readers.
      else if (/^(data-)?tool-approval-response$/.test(event.type) || event.type === 'data-tool-resumed' || event.type === 'data-tool-attempt' || event.type === 'start') status = 'running'
    }
    return status
  }

  /** Reads a response's SSE frames as they arrive: `id:` and `data:` lines, comments skipped, up to `[DONE]`. */
  async function* frames(response: any): AsyncGenerator<{ seq: string; event: ToolEvent }> {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += value.replace(/\r\n?/g, '\n')
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        let seq = ''
        const data: string[] = []
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':')
          const field = colon < 0 ? line : line.slice(0, colon)
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
          if (field === 'id') seq = text
          else if (field === 'data') data.push(text)
        }
        if (data.length === 0) continue
        if (data.join('\n') === '[DONE]') return reader.cancel()
        yield { seq, event: JSON.parse(data.join('\n')) }
      }
    }
  }

  return { h, badges, summary, statusOf, frames }
}
