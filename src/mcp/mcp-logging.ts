import type { LogData, ToolEvent } from '../protocol/tool-event.ts'

/** MCP's log levels (RFC 5424 severities). */
type McpLoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'

/** `observe.log`'s levels as MCP's: `warn` is `warning`, `fatal` (the tool cannot go on) is `critical`. */
const toMcpLoggingLevel: Readonly<Record<LogData['level'], McpLoggingLevel>> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error', fatal: 'critical' }

/**
 * The logging capability: with it the SDK serves `logging/setLevel` (2025) and `ctx.mcpReq.log`
 * honours the level a session set or a 2026-07-28 request names in `_meta` (none named, nothing sent).
 */
export const mcpLoggingCapability = { logging: {} }

/** A `notifications/message`'s params: the tool's MCP name as `logger`, the log entry (without its level) as `data`. */
export type McpLogMessage = { level: McpLoggingLevel; logger: string; data: Omit<LogData, 'level'> }

/** The `notifications/message` params of one `data-tool-log` event of the tool `logger`. */
function toMcpLogMessage({ level, ...entry }: LogData, logger: string): McpLogMessage {
  return { level: toMcpLoggingLevel[level] ?? 'info', logger, data: entry }
}

/**
 * A call's tap that sends each of its `data-tool-log` events (a tool's `observe.log`) to `send`,
 * as `notifications/message` on the call's own stream; other events pass by.
 */
export function createMcpLogSender(logger: string, send: (message: McpLogMessage) => Promise<void>): (event: ToolEvent) => void {
  return (event) => {
    if (event.type !== 'data-tool-log') return
    // A client that went away misses its logs; the call itself goes on.
    send(toMcpLogMessage(event.data, logger)).catch(() => {})
  }
}
