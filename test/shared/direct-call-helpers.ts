/** What the direct-call tests share: a weather tool with a spy, a recording `observe`, a quiet console. */
import { vi } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/runtime/create-tool.ts'
import type { ToolObserve } from '../../src/tool/tool-execution-context.ts'

export function silenceConsole() {
  return { warn: vi.spyOn(console, 'warn').mockImplementation(() => {}), error: vi.spyOn(console, 'error').mockImplementation(() => {}) }
}

export function recordingObserve() {
  const logs: { level: string; message: string; data?: Record<string, unknown> }[] = []
  const spans: string[] = []
  const observe: ToolObserve = {
    async span(name, fn) {
      spans.push(name)
      return fn()
    },
    log(level, message, data) {
      logs.push({ level, message, ...(data ? { data } : {}) })
    },
  }
  return { observe, logs, spans }
}

export const weather = (execute = vi.fn(async ({ location }: { location: string }) => ({ location, temperatureCelsius: 21, conditions: 'sunny' }))) => ({
  execute,
  tool: createTool({
    id: 'weather-tool',
    description: 'Weather',
    inputSchema: z.object({ location: z.string().min(1), units: z.enum(['c', 'f']).optional() }),
    outputSchema: z.object({ location: z.string(), temperatureCelsius: z.number(), conditions: z.string() }),
    execute,
  }),
})
