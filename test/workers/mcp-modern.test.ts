// MCP 2026-07-28 at /mcp, with the official SDK v2 client over the test Worker (SELF): no
// `initialize`, no session; a run that waits for a person comes back as `input_required`, the
// client answers it with its elicitation handler and retries, and the retry continues the run.
import { SELF } from 'cloudflare:test'
import { Client, StreamableHTTPClientTransport, type ElicitRequestFormParams, type ElicitResult } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { counter, uniqueKey } from './run-client.ts'
import { jsonRpcAnswer, modernToolCall } from '../fixtures/modern-mcp-call.ts'

const mcpUrl = new URL('http://tools.test/mcp')
const open: Client[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})))
})

interface ModernOptions {
  answer?: (params: ElicitRequestFormParams) => ElicitResult
  headers?: Record<string, string>
  /** Sees (and may rewrite) every request body the client sends. */
  rewrite?: (body: string) => string
}

async function connect(options: ModernOptions = {}) {
  // `auto`: probe `server/discover` first (the v2 client's default is still the 2025 handshake).
  const client = new Client(
    { name: 'toolroute-modern-test', version: '1.0.0' },
    { capabilities: options.answer ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode: 'auto' } },
  )
  const questions: ElicitRequestFormParams[] = []
  const bodies: string[] = []
  if (options.answer) {
    const answer = options.answer
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as ElicitRequestFormParams
      questions.push(params)
      return answer(params)
    })
  }
  const transport = new StreamableHTTPClientTransport(mcpUrl, {
    fetch: (url, init) => {
      let body = typeof init?.body === 'string' ? init.body : undefined
      if (body !== undefined) {
        if (options.rewrite) body = options.rewrite(body)
        bodies.push(body)
      }
      const headers = new Headers(init?.headers)
      for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value)
      return SELF.fetch(url, { ...init, ...(body !== undefined ? { body } : {}), headers })
    },
  })
  open.push(client)
  await client.connect(transport)
  return { client, questions, bodies }
}

const textOf = (result: { content?: unknown }) => ((result.content as { type: string; text?: string }[] | undefined) ?? [])[0]?.text ?? ''

describe('MCP 2026-07-28 (SDK v2 client)', () => {
  it('negotiates 2026-07-28 without a session, lists the tools and calls one', async () => {
    const { client } = await connect()
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['weather-tool', 'delete-file', 'book-flight']))
    expect(tools.find((tool) => tool.name === 'delete-file')).toMatchObject({ title: 'Delete file', annotations: { destructiveHint: true } })
    const result = await client.callTool({ name: 'weather-tool', arguments: { location: 'Lisbon' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ location: 'Lisbon', temperatureCelsius: 21, conditions: 'sunny' })
  })

  it('answers bad input as an isError result and an unknown tool as -32602', async () => {
    const { client } = await connect()
    const invalid = await client.callTool({ name: 'weather-tool', arguments: { location: '' } })
    expect(invalid.isError).toBe(true)
    expect(textOf(invalid)).toMatch(/^INPUT_VALIDATION_FAILED/)
    await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toMatchObject({ code: -32602 })
  })

  it('asks for approval as input_required, and the retry approves the run: one execution', async () => {
    const key = uniqueKey('modern-approve')
    const { client, questions } = await connect({ answer: () => ({ action: 'accept', content: { approved: true } }) })
    const result = await client.callTool({ name: 'counted-approval', arguments: { key } })
    expect(questions).toHaveLength(1)
    expect(questions[0]!.message).toContain('Allow counted-approval to run')
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ executions: 1 })
    expect(await counter(key).count()).toBe(1)
  })

  it('a client that declares no elicitation gets an isError result naming the run to approve over HTTP, not -32021', async () => {
    const key = uniqueKey('modern-no-forms')
    const { client } = await connect()
    const result = await client.callTool({ name: 'counted-approval', arguments: { key } })
    expect(result.isError).toBe(true)
    const run = (result._meta as { 'toolroute/run': { runId: string; status: string } })['toolroute/run']
    expect(run.status).toBe('approval-required')
    expect(textOf(result)).toContain(run.runId)
    expect(await counter(key).count()).toBe(0)
  })

  it('a declined approval never executes the tool', async () => {
    const key = uniqueKey('modern-decline')
    const { client } = await connect({ answer: () => ({ action: 'accept', content: { approved: false, reason: 'not today' } }) })
    const result = await client.callTool({ name: 'counted-approval', arguments: { key } })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('declined')
    expect(await counter(key).count()).toBe(0)
  })

  it('asks a suspended tool its resumeSchema, and the retry resumes the same run once', async () => {
    const key = uniqueKey('modern-resume')
    const { client, questions } = await connect({ answer: () => ({ action: 'accept', content: { answer: 'yes' } }) })
    const result = await client.callTool({ name: 'counted-suspend', arguments: { key } })
    expect(questions[0]!.message).toContain('Go on?')
    expect(result.structuredContent).toEqual({ answer: 'yes', executions: 1 })
    expect(await counter(key).count()).toBe(1)
  })

  it('asks a resume form again while its answers fail resumeSchema, three times in all, then names the run to resume over HTTP', async () => {
    const { client, questions } = await connect({ answer: () => ({ action: 'accept', content: { seat: 'window please' } }) })
    const result = await client.callTool({ name: 'book-flight', arguments: { from: 'LIS', to: 'FAO' } })
    expect(questions).toHaveLength(3)
    expect(questions[2]!.message).toContain('The last answer was not accepted')
    expect(result.isError).toBe(true)
    const run = (result._meta as { 'toolroute/run': { runId: string; status: string } })['toolroute/run']
    expect(run.status).toBe('suspended')
    expect(textOf(result)).toContain(run.runId)
  })

  it('a question asked mid-execute is input_required; each retry answers it and nothing before it runs again', async () => {
    const key = uniqueKey('modern-questions')
    const { client, questions } = await connect({
      answer: (params): ElicitResult => ({ action: 'accept', content: params.message.includes('name') ? { name: 'Ada' } : { colour: 'teal' } }),
    })
    const result = await client.callTool({ name: 'counted-questions', arguments: { key } })
    expect(questions.map((question) => question.message)).toEqual(['Your name?', 'Your colour?'])
    expect(result.structuredContent).toEqual({ name: 'Ada', colour: 'teal', starts: 1 })
    expect(await counter(`${key}:started`).count()).toBe(1)
  })

  it('a client that declares no elicitation is never asked mid-execute: the tool gets the error at once, not -32021', async () => {
    const { client } = await connect()
    const result = await client.callTool({ name: 'ask-name', arguments: {} })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('cannot answer questions')
  })

  it('a tool names its question\'s inputRequests key (sendRequest(q, { key })), and the retry answers under that key', async () => {
    type Asked = { result: { resultType: string; requestState: string; inputRequests: Record<string, { method: string }> } }
    const ask = async () => (await rawCall('alice', 'keyed-question', {})) as Asked
    const asked = await ask()
    expect(asked.result.resultType).toBe('input_required')
    expect(Object.keys(asked.result.inputRequests)).toEqual(['user_name'])
    expect(asked.result.inputRequests.user_name!.method).toBe('elicitation/create')
    const answered = (await rawCall('alice', 'keyed-question', {}, { requestState: asked.result.requestState, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } })) as { result: { structuredContent: unknown } }
    expect(answered.result.structuredContent).toEqual({ greeting: 'Hello, Ada!' })
    // An answer under toolroute's default key does not answer a question the tool keyed otherwise.
    const again = await ask()
    const misfiled = (await rawCall('alice', 'keyed-question', {}, { requestState: again.result.requestState, inputResponses: { answer: { action: 'accept', content: { name: 'Ada' } } } })) as { result: { structuredContent: unknown } }
    expect(misfiled.result.structuredContent).toEqual({ greeting: '(cancel)' })
  })

  it('a tool that requires a client capability the request does not declare is refused with -32021 (HTTP 400) before it runs', async () => {
    const key = uniqueKey('modern-capability')
    const call = (capabilities: Record<string, unknown>) => {
      const init = modernToolCall('needs-sampling', { key })
      const body = JSON.parse(init.body as string)
      body.params._meta['io.modelcontextprotocol/clientCapabilities'] = capabilities
      return SELF.fetch(mcpUrl, { ...init, body: JSON.stringify(body) })
    }
    const refused = await call({ elicitation: { form: {} } })
    expect(refused.status).toBe(400)
    expect(await jsonRpcAnswer(refused)).toMatchObject({ id: 7, error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } } })
    expect(await counter(key).count()).toBe(0)
    const served = await jsonRpcAnswer(await call({ sampling: {} }))
    expect(served.result.structuredContent).toEqual({ executions: 1 })
  })

  it('the example confirm-order tool asks and places the order over 2026-07-28', async () => {
    const { client } = await connect({ answer: () => ({ action: 'accept', content: { confirm: true, quantity: 3 } }) })
    const result = await client.callTool({ name: 'confirm-order', arguments: { item: 'Tea', quantity: 1 } })
    expect(result.structuredContent).toEqual({ status: 'placed', item: 'Tea', quantity: 3, orderId: 'ord_tea_3' })
  })

  it('streams a generator tool\'s drafts as notifications/progress, then answers its output', async () => {
    const { client } = await connect()
    const seen: { progress: number; message?: string }[] = []
    const text = 'One. Two. Three.'
    const result = await client.callTool({ name: 'draft-summary', arguments: { text } }, { onprogress: (progress) => void seen.push(progress) })
    expect(seen.map((progress) => progress.progress)).toEqual([1, 2, 3])
    expect(JSON.parse(seen[0]!.message!)).toEqual({ summary: 'One.', sentences: 1, done: false })
    expect(result.structuredContent).toEqual({ summary: text, sentences: 3, done: true })
  })

  it('refuses a forged requestState (-32602) before any tool code runs', async () => {
    const key = uniqueKey('modern-forged')
    const { client } = await connect({
      answer: () => ({ action: 'accept', content: { approved: true } }),
      rewrite: (body) => body.replace(/"requestState":"v1\.([^".]+)\./, '"requestState":"v1.$1x.'),
    })
    await expect(client.callTool({ name: 'counted-approval', arguments: { key } })).rejects.toMatchObject({ code: -32602 })
    expect(await counter(key).count()).toBe(0)
  })

  it("refuses another principal's requestState, and the run stays waiting for its owner", async () => {
    const key = uniqueKey('modern-principal')
    const asked = (await rawCall('alice', 'counted-approval', { key })) as { result: { resultType: string; requestState: string; inputRequests: Record<string, unknown> } }
    expect(asked.result.resultType).toBe('input_required')
    expect(Object.keys(asked.result.inputRequests)).toEqual(['answer'])
    const approve = { requestState: asked.result.requestState, inputResponses: { answer: { action: 'accept', content: { approved: true } } } }
    const stolen = (await rawCall('mallory', 'counted-approval', { key }, approve)) as { error?: { code: number; message: string } }
    expect(stolen.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' })
    expect(await counter(key).count()).toBe(0)
    const owned = (await rawCall('alice', 'counted-approval', { key }, approve)) as { result: { structuredContent: unknown } }
    expect(owned.result.structuredContent).toEqual({ executions: 1 })
    // The same answer sent again finds the run no longer waiting: it does not run twice.
    const again = (await rawCall('alice', 'counted-approval', { key }, approve)) as { result: { isError?: boolean; structuredContent?: unknown } }
    expect(again.result.structuredContent).toEqual({ executions: 1 })
    expect(await counter(key).count()).toBe(1)
  })
})

describe('the Origin rule at /mcp', () => {
  const post = (origin?: string) =>
    SELF.fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(origin ? { origin } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'o', version: '1' } } }),
    })

  it('refuses a foreign Origin with 403 before anything runs, and lets the app’s own and none through', async () => {
    const evil = await post('http://evil.example.com')
    expect(evil.status).toBe(403)
    expect(await evil.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('evil.example.com') } })
    expect((await post('http://tools.test')).status).toBe(200)
    expect((await post()).status).toBe(200)
  })
})

/** A 2026-07-28 `tools/call` sent by hand, as `principal`; its JSON-RPC answer. */
async function rawCall(principal: string, name: string, args: Record<string, unknown>, retry: Record<string, unknown> = {}): Promise<unknown> {
  return jsonRpcAnswer(await SELF.fetch(mcpUrl, modernToolCall(name, args, retry, { authorization: `Bearer ${principal}` })))
}
