import type { EmitEvent, LogData } from '../protocol/tool-event.ts'
import type { ToolObserve } from '../tool/tool-execution-context.ts'
import { randomHex } from './create-id.ts'
import type { ToolCallScope } from './tool-call-scope.ts'

/**
 * `context.observe`: spans and logs become `data-tool-span` / `data-tool-log` events of the run.
 * Nested spans record their parent, so a trace can be rebuilt from the stream alone.
 */
export function createObserve(emit: EmitEvent, trace?: ToolCallScope['trace']): ToolObserve {
  const stack: string[] = []
  return {
    async span(name, fn, attributes) {
      const spanId = randomHex(8)
      const parentSpanId = stack.at(-1)
      const base = { spanId, name, ...(parentSpanId ? { parentSpanId } : {}) }
      emit({ type: 'data-tool-span', data: { ...base, phase: 'start', ...(attributes ? { attributes } : {}) } })
      const started = performance.now()
      stack.push(spanId)
      let status: 'ok' | 'error' = 'error'
      try {
        const result = await (trace ? trace(name, async () => fn()) : fn())
        status = 'ok'
        return result
      } finally {
        stack.splice(stack.lastIndexOf(spanId), 1)
        emit({ type: 'data-tool-span', data: { ...base, phase: 'end', status, durationMs: performance.now() - started } })
      }
    },
    log(level, message, data) {
      const entry: LogData = { level, message, time: new Date().toISOString(), ...(data ? { data } : {}) }
      emit({ type: 'data-tool-log', data: entry })
    },
  }
}
