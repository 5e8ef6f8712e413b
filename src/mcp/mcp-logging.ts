import type { LoggingLevel } from '@modelcontextprotocol/server'
import type { LogData, ToolEvent } from '../protocol/tool-event.ts'

/** `observe.log`'s levels as MCP's: `warn` is `warning`, `fatal` (the tool cannot go on) is `critical`. */
const toMcpLoggingLevel: Readonly<Record<LogData['level'], LoggingLevel>> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error', fatal: 'critical' }

/** With it the SDK serves `logging/setLevel` (2025) and `ctx.mcpReq.log` honours the level set or named in `_meta` (none: nothing sent). */
export const mcpLoggingCapability = { logging: {} }

/** A `notifications/message`'s params: the tool's MCP name as `logger`, the log entry (without its level) as `data`. */
export type McpLogMessage = { level: LoggingLevel; logger: string; data: Omit<LogData, 'level'> }

/** A call's tap that sends each `data-tool-log` event (`observe.log`) as `notifications/message` on the call's stream. */
export function createMcpLogSender(logger: string, send: (message: McpLogMessage) => Promise<void>): (event: ToolEvent) => void {
  return (event) => {
    if (event.type !== 'data-tool-log') return
    const { level, ...data } = event.data
    // A client that went away misses its logs; the call itself goes on.
    send({ level: toMcpLoggingLevel[level] ?? 'info', logger, data }).catch(() => {})
  }
}
