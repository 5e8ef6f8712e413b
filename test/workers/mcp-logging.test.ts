// Tool logs as MCP logging (SPEC §5, issue #28 item 4), with the official SDK v2 client: a tool's
// `observe.log` is a `notifications/message` on its call's stream, at or above the level the
// client asked for (`logging/setLevel` in a 2025 session; `_meta…/logLevel` per 2026-07-28
// request, and nothing without it).
import { SELF } from 'cloudflare:test'
import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { modernToolCall } from '../fixtures/modern-mcp-call.ts'

const mcpUrl = new URL('http://tools.test/mcp')
const open: Client[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})))
})

interface LogMessage {
  level: string
  logger?: string
  data: { message: string; data?: unknown; time: string }
}

/** A 2025-11-25 session (the v2 client's default handshake; elicitation declared, so the server keeps a session). */
async function session() {
  const client = new Client({ name: 'toolroute-logging-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
  client.setRequestHandler('elicitation/create', async () => ({ action: 'cancel' }))
  const logs: LogMessage[] = []
  client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params as LogMessage))
  open.push(client)
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { fetch: (url, init) => SELF.fetch(url, init) }))
  return { client, logs }
}

/** A raw 2026-07-28 call of `logged-steps`, with `_meta…/logLevel` when given: the messages its stream carried. */
async function modernCall(logLevel?: string): Promise<{ messages: { method?: string; params?: LogMessage; result?: { structuredContent?: unknown } }[] }> {
  const init = modernToolCall('logged-steps', {})
  const body = JSON.parse(init.body as string)
  if (logLevel) body.params._meta[LOG_LEVEL_META_KEY] = logLevel
  const response = await SELF.fetch(mcpUrl, { ...init, body: JSON.stringify(body) })
  const text = await response.text()
  const datas = (response.headers.get('content-type') ?? '').includes('text/event-stream') ? text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)) : [text]
  return { messages: datas.filter((data) => data.startsWith('{')).map((data) => JSON.parse(data)) }
}

describe('tool logs as notifications/message', () => {
  it('2025-11-25: the server declares logging, and a call sends its logs at or above the level the session set', async () => {
    const { client, logs } = await session()
    expect(client.getServerCapabilities()?.logging).toEqual({})
    expect(await client.setLoggingLevel('warning')).toEqual({})
    const result = await client.callTool({ name: 'logged-steps', arguments: {} })
    expect(result.structuredContent).toEqual({ logged: 5 })
    // warn is MCP's warning, fatal its critical; debug and info are below the level set.
    expect(logs.map((log) => log.level)).toEqual(['warning', 'error', 'critical'])
    expect(logs[0]).toMatchObject({ logger: 'logged-steps', data: { message: 'step at warn', data: { level: 'warn' } } })
    expect(Date.parse(logs[0]!.data.time)).not.toBeNaN()
  })

  it('2025-11-25: before any setLevel every log goes out', async () => {
    const { client, logs } = await session()
    await client.callTool({ name: 'logged-steps', arguments: {} })
    expect(logs.map((log) => log.level)).toEqual(['debug', 'info', 'warning', 'error', 'critical'])
  })

  it('2026-07-28: a request naming _meta…/logLevel gets the logs at or above it on its stream; one naming none gets none', async () => {
    const asked = await modernCall('error')
    const logs = asked.messages.filter((message) => message.method === 'notifications/message').map((message) => message.params!)
    expect(logs.map((log) => [log.level, log.data.message])).toEqual([
      ['error', 'step at error'],
      ['critical', 'step at fatal'],
    ])
    expect(asked.messages.at(-1)?.result?.structuredContent).toEqual({ logged: 5 })

    const silent = await modernCall()
    expect(silent.messages.filter((message) => message.method === 'notifications/message')).toEqual([])
    expect(silent.messages.at(-1)?.result?.structuredContent).toEqual({ logged: 5 })
  })
})
