import type { LogData, ToolEvent } from '../protocol/tool-event.ts'

/** MCP's log levels (RFC 5424 severities), least severe first. */
export const mcpLoggingLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const
export type McpLoggingLevel = (typeof mcpLoggingLevels)[number]

/** `observe.log`'s levels as MCP's: `warn` is `warning`, `fatal` (the tool cannot go on) is `critical`. */
export const toMcpLoggingLevel: Readonly<Record<LogData['level'], McpLoggingLevel>> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error', fatal: 'critical' }

/**
 * The server capability that announces logging. With it the SDK v2 `Server` serves
 * `logging/setLevel` itself (2025 connections) and `ctx.mcpReq.log` honours the level a 2025
 * session set (every level before it sets one) or a 2026-07-28 request names in
 * `_meta["io.modelcontextprotocol/logLevel"]` (none named, nothing sent): declaring it is all the
 * registering there is, and a call sends its logs through `ctx.mcpReq.log` (`createMcpLogSender`).
 */
export const mcpLoggingCapability = { logging: {} }

/** A `notifications/message`'s params: the tool's MCP name as `logger`, the log entry (without its level) as `data`. */
export interface McpLogMessage {
  level: McpLoggingLevel
  logger: string
  data: Omit<LogData, 'level'>
}

/** The `notifications/message` params of one `data-tool-log` event of the tool `logger`. */
export function toMcpLogMessage({ level, ...entry }: LogData, logger: string): McpLogMessage {
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
