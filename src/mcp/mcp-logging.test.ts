import { describe, expect, it } from 'vitest'
import type { ToolEvent } from '../protocol/tool-event.ts'
import { createMcpLogSender, type McpLogMessage } from './mcp-logging.ts'

describe('MCP logging', () => {
  it('sends each data-tool-log event as a message with MCP levels, and nothing for other events', async () => {
    const sent: McpLogMessage[] = []
    const send = createMcpLogSender('my_tool', async (message) => void sent.push(message))
    const time = '2026-12-02T00:00:00.000Z'
    send({ type: 'data-tool-log', data: { level: 'warn', message: 'careful', data: { n: 1 }, time } })
    send({ type: 'data-tool-log', data: { level: 'fatal', message: 'gone', time } })
    send({ type: 'data-tool-output', data: { toolCallId: 't', output: 'x' } } as ToolEvent)
    expect(sent).toEqual([
      { level: 'warning', logger: 'my_tool', data: { message: 'careful', data: { n: 1 }, time } },
      { level: 'critical', logger: 'my_tool', data: { message: 'gone', time } },
    ])
  })

  it('a send that fails does not throw into the call', () => {
    const send = createMcpLogSender('t', () => Promise.reject(new Error('client gone')))
    expect(() => send({ type: 'data-tool-log', data: { level: 'info', message: 'm', time: '' } })).not.toThrow()
  })
})
