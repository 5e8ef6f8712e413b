import { SELF } from 'cloudflare:test'
import { Client, StreamableHTTPClientTransport, type ElicitRequestFormParams, type ElicitResult } from '@modelcontextprotocol/client'

export const mcpUrl = 'http://tools.test/mcp'

const open: Client[] = []

/** Closes every client the test opened (call from `afterEach`). */
export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})))
}

export interface ConnectOptions {
  /** Declares elicitation and answers each question with this (the user, in a real client). */
  elicitation?: (params: ElicitRequestFormParams) => ElicitResult | Promise<ElicitResult>
  headers?: Record<string, string>
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>
  url?: string
}

/**
 * The official SDK (v2) client over the test Worker (SELF), speaking 2025-11-25 (its default
 * `initialize` handshake, as Claude Desktop or the Inspector connect today).
 */
export async function connectMcp(options: ConnectOptions = {}) {
  const client = new Client({ name: 'toolroute-test', version: '1.0.0' }, { capabilities: options.elicitation ? { elicitation: {} } : {} })
  // Form questions (the only kind toolroute asks), as the client received them.
  const questions: { message: string; requestedSchema?: Record<string, unknown> }[] = []
  if (options.elicitation) {
    const answer = options.elicitation
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as ElicitRequestFormParams
      questions.push(params)
      return answer(params)
    })
  }
  const transport = new StreamableHTTPClientTransport(new URL(options.url ?? mcpUrl), {
    fetch: options.fetch ?? ((url, init) => SELF.fetch(url, init)),
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
  })
  open.push(client)
  await client.connect(transport)
  return { client, transport, questions }
}

/** The text of a result's first content block. */
export function textOf(result: unknown): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[]
  return first?.type === 'text' ? (first.text ?? '') : ''
}
