// The secret canary: tools whose raw input, output, request context, suspend payload and resume
// data carry one unique secret (test/fixtures/canary-tools.ts), driven through every surface.
// Every display and transcript event, every error body and every MCP result is scanned for the
// secret: zero occurrences. (What the spec gives the calling application raw is not scanned:
// a JSON call's `output`, the `raw` view, `GET /runs/:id`'s `output`, MCP `structuredContent`.)
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { canarySecret as secret } from '../fixtures/canary-tools.ts'
import { readSse } from '../fixtures/read-sse.ts'
import { chunkedBody } from './http-client.ts'
import { closeAll, connectMcp } from './mcp-client.ts'
import { call, getRun, runAction, runEvents, uniqueKey } from './run-client.ts'
import { SELF } from 'cloudflare:test'

const context = JSON.stringify({ apiKey: `sk_${secret}`, token: secret })
const headers = { 'x-request-context': context }
const input = { label: 'visible', secret }
const scanned = { bodies: 0, events: 0, chars: 0 }
const leaks: string[] = []

function scan(what: string, text: string): void {
  scanned.bodies += 1
  scanned.chars += text.length
  const at = text.indexOf(secret)
  if (at >= 0) leaks.push(`${what}: …${text.slice(Math.max(0, at - 120), at + secret.length + 20)}…`)
}

/** A whole SSE response of a display or transcript view, scanned event by event. */
async function scanStream(what: string, response: Response) {
  const read = await readSse(response)
  for (const message of read.messages) {
    scanned.events += 1
    scan(`${what} (event ${message.id ?? 'done'})`, message.data)
  }
  scanned.bodies -= read.messages.length - 1
  return read
}

/** An error answer, scanned whole. */
async function scanError(what: string, response: Response) {
  const text = await response.text()
  expect(response.status, `${what}: ${text}`).toBeGreaterThanOrEqual(400)
  scan(what, text)
  return JSON.parse(text) as { error: { code: string } }
}

const sse = (extra: Record<string, string> = {}) => ({ headers: { ...headers, ...extra }, sse: true })

afterEach(closeAll)
afterAll(() => {
  console.log(`secret canary: ${scanned.bodies} answers and ${scanned.events} events (${scanned.chars} characters) scanned across display, transcript, errors and MCP; ${leaks.length} occurrences of the secret`)
})

describe('secret canary', () => {
  it('display and transcript views of a call never show the secret (whole body, chunked body, keyed replay)', async () => {
    for (const view of ['', '?view=display', '?view=transcript']) {
      const read = await scanStream(`call${view}`, await SELF.fetch(`http://tools.test/tools/canary${view}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers }, body: JSON.stringify(input) }))
      expect(read.events.map((event) => event.type)).toContain('tool-output-available')
    }
    const body = chunkedBody()
    const live = SELF.fetch('http://tools.test/tools/canary', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers }, body: body.stream, duplex: 'half' } as RequestInit)
    const text = JSON.stringify(input)
    for (let index = 0; index < text.length; index += 7) body.send(text.slice(index, index + 7))
    body.end()
    await scanStream('chunked call', await live)

    const key = uniqueKey('canary')
    const first = await call('canary', input, { headers: { ...headers, 'idempotency-key': key } })
    expect(first.status).toBe(200)
    const runId = first.headers.get('x-run-id')!
    await scanStream('keyed replay (display)', await call('canary', input, sse({ 'idempotency-key': key })))
    const run = (await (await getRun(runId)).json()) as { transcript: unknown[] }
    scan('GET /runs transcript', JSON.stringify(run.transcript))
    await scanStream('GET /runs/:id/events (display)', await runEvents(runId))
    await scanStream('GET /runs/:id/events (transcript)', await runEvents(runId, { view: 'transcript' }))
  })

  it('error bodies and error events never carry the secret: bad input, bad JSON, bad context, bad output', async () => {
    expect((await scanError('invalid input', await call('canary', { label: 'x'.repeat(30), secret }, { headers }))).error.code).toBe('INPUT_VALIDATION_FAILED')
    expect((await scanError('invalid JSON', await call('canary', `{"label":"x","secret": ${secret}}`, { headers }))).error.code).toBe('INVALID_JSON')
    expect((await scanError('invalid JSON (unterminated)', await call('canary', `{"label":"x","secret":"${secret}`, { headers }))).error.code).toBe('INVALID_JSON')
    const badContext = { 'x-request-context': JSON.stringify({ apiKey: secret, token: 5, password: secret }) }
    expect((await scanError('invalid request context', await call('canary', input, { headers: badContext }))).error.code).toBe('REQUEST_CONTEXT_VALIDATION_FAILED')
    expect((await scanError('invalid output', await call('canary-bad-output', input))).error.code).toBe('OUTPUT_VALIDATION_FAILED')
    await scanStream('invalid output (display)', await call('canary-bad-output', input, { sse: true }))
    await scanStream('invalid output (transcript)', await SELF.fetch('http://tools.test/tools/canary-bad-output?view=transcript', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(input) }))

    // A chunked body with SSE is validated as it streams: its error is an event of the display view.
    for (const [what, text] of [
      ['streamed invalid input', JSON.stringify({ label: 'x'.repeat(30), secret })],
      ['streamed invalid JSON', `{"label":"x","secret": ${secret}}`],
    ] as const) {
      const body = chunkedBody()
      const live = SELF.fetch('http://tools.test/tools/canary', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers }, body: body.stream, duplex: 'half' } as RequestInit)
      body.send(text)
      body.end()
      const read = await scanStream(what, await live)
      expect(read.events.map((event) => event.type)).toContain('tool-input-error')
    }
  })

  it('approval and suspension: the call, approve and resume streams and the transcript never show the secret', async () => {
    const approval = await call('canary-approval', input, sse())
    const approvalRunId = approval.headers.get('x-run-id')!
    await scanStream('approval call', approval)
    await scanStream('approve', await runAction(approvalRunId, 'approve', {}, { sse: true }))
    scan('approval transcript', JSON.stringify(((await (await getRun(approvalRunId)).json()) as { transcript: unknown }).transcript))

    const suspended = await call('canary-suspend', input, sse())
    const suspendRunId = suspended.headers.get('x-run-id')!
    await scanStream('suspend call', suspended)
    const waiting = (await (await getRun(suspendRunId)).json()) as { transcript: unknown }
    scan('suspended transcript', JSON.stringify(waiting.transcript))
    await scanError('invalid resume', await runAction(suspendRunId, 'resume', { resumeData: { answer: 7, secret } }))
    await scanStream('resume', await runAction(suspendRunId, 'resume', { resumeData: { answer: secret } }, { sse: true }))
    scan('resumed transcript', JSON.stringify(((await (await getRun(suspendRunId)).json()) as { transcript: unknown }).transcript))
    await scanStream('suspend run events (display)', await runEvents(suspendRunId))
    await scanStream('suspend run events (transcript)', await runEvents(suspendRunId, { view: 'transcript' }))
  })

  it('MCP results never carry the secret outside structuredContent (content is the model output)', async () => {
    const { client } = await connectMcp({ headers })
    const done = await client.callTool({ name: 'canary', arguments: input })
    expect(done.isError).toBeFalsy()
    expect(JSON.stringify(done.structuredContent)).toContain(secret) // the raw output, as the spec says
    scan('MCP result (content)', JSON.stringify({ ...done, structuredContent: undefined }))
    for (const [what, name, args] of [
      ['MCP invalid input', 'canary', { label: 'x'.repeat(30), secret }],
      ['MCP invalid output', 'canary-bad-output', input],
    ] as const) {
      const result = await client.callTool({ name, arguments: args })
      expect(result.isError, what).toBe(true)
      scan(what, JSON.stringify(result))
    }
    const badContext = await connectMcp({ headers: { 'x-request-context': JSON.stringify({ apiKey: secret }) } })
    const refused = await badContext.client.callTool({ name: 'canary', arguments: input })
    expect(refused.isError).toBe(true)
    scan('MCP invalid request context', JSON.stringify(refused))
  })

  it('found the secret nowhere', () => {
    expect(leaks).toEqual([])
  })
})
