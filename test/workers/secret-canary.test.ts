// The secret canary: tools whose raw input, output, request context, suspend payload and resume
// data carry one unique secret (test/fixtures/canary-tools.ts), driven through every surface.
// Every display and transcript event, every error body and every MCP result is scanned for the
// secret: zero occurrences. (What the spec gives the calling application raw is not scanned:
// a JSON call's `output`, the `raw` view's payloads, `GET /runs/:id`'s `output` and
// `suspendPayload`, MCP `structuredContent`. The raw view's `errorText`s are: a validation message
// quotes no value in any view.) The second half fails every phase in every schema kind.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { canaryFailing, canaryKinds, canarySecret as secret } from '../fixtures/canary-tools.ts'
import { modernToolCall } from '../fixtures/modern-mcp-call.ts'
import { canarySecrets } from '../shared/secret-scan.ts'
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
  for (const canary of canarySecrets) {
    const at = text.indexOf(canary)
    if (at >= 0) leaks.push(`${what}: …${text.slice(Math.max(0, at - 120), at + canary.length + 20)}…`)
  }
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

  describe.each(canaryKinds)('every phase failing, schemas in %s', (kind) => {
    const id = `canary-${kind}`
    const valid = { label: 'visible', secret }
    const post = (view: string, body: unknown, extra: Record<string, string> = {}) =>
      SELF.fetch(`http://tools.test/tools/${id}${view}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers, ...extra }, body: JSON.stringify(body) })

    /**
     * A failing call in every view: JSON whole; display and transcript whole (a stream, or the
     * error body a refused call answers before any stream); the raw view's error texts.
     */
    async function everyView(what: string, body: unknown, extra: Record<string, string> = {}, code?: string) {
      const json = await scanError(`${what} (JSON)`, await call(id, body, { headers: { ...headers, ...extra } }))
      if (code) expect(json.error.code, what).toBe(code)
      for (const view of ['?view=display', '?view=transcript', '?view=raw']) {
        const response = await post(view, body, extra)
        if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
          expect((await scanError(`${what} (${view})`, response)).error.code).toBe(json.error.code)
          continue
        }
        const types = await scanView(what, view, response)
        expect(types.some((type) => type.endsWith('-error')), `${what} ${view}`).toBe(true)
      }
      return json
    }

    /** A stream of a view: display and transcript scanned whole, the raw view's error texts; the event types it had. */
    async function scanView(what: string, view: string, response: Response): Promise<string[]> {
      if (view !== '?view=raw') return (await scanStream(`${what} (${view})`, response)).events.map((event) => event.type)
      const { events } = await readSse(response)
      for (const event of events) if ('errorText' in event) scan(`${what} (raw ${event.type})`, event.errorText)
      return events.map((event) => event.type)
    }

    /** The same body streamed in chunks with SSE: validated as it streams, refused by a `tool-input-error` event. */
    async function streamed(what: string, view: string, body: unknown, extra: Record<string, string> = {}) {
      const chunks = chunkedBody()
      const live = SELF.fetch(`http://tools.test/tools/${id}${view}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers, ...extra }, body: chunks.stream, duplex: 'half' } as RequestInit)
      const text = JSON.stringify(body)
      for (let index = 0; index < text.length; index += 9) chunks.send(text.slice(index, index + 9))
      chunks.end()
      expect(await scanView(what, view, await live), `${what} ${view}`).toContain('tool-input-error')
    }

    it('input: JSON, display (whose transform hides the field), transcript, raw error text; whole and streamed', async () => {
      await everyView('invalid input', canaryFailing.input, {}, 'INPUT_VALIDATION_FAILED')
      for (const view of ['?view=display', '?view=transcript', '?view=raw']) await streamed('streamed invalid input', view, canaryFailing.input)
    })

    it('request context', async () => {
      await everyView('invalid request context', valid, { 'x-request-context': JSON.stringify(canaryFailing.requestContext) }, 'REQUEST_CONTEXT_VALIDATION_FAILED')
    })

    it('output and suspend payload, and the stored run of each: error and transcript', async () => {
      for (const [mode, code] of [['bad-output', 'OUTPUT_VALIDATION_FAILED'], ['bad-suspend', 'SUSPEND_VALIDATION_FAILED']] as const) {
        const body = { ...valid, mode }
        await everyView(mode, body, {}, code)
        const keyed = await call(id, body, { headers: { ...headers, 'idempotency-key': uniqueKey(mode) } })
        await scanError(`${mode} (keyed)`, keyed)
        const runId = keyed.headers.get('x-run-id')
        expect(runId, `${mode}: a stored run`).toBeTruthy()
        const run = (await (await getRun(runId!)).json()) as { status: string; error?: unknown; transcript: unknown }
        expect(run.status).toBe('failed')
        scan(`${mode}: GET /runs/:id error`, JSON.stringify(run.error))
        scan(`${mode}: GET /runs/:id transcript`, JSON.stringify(run.transcript))
        await scanStream(`${mode}: run events (display)`, await runEvents(runId!))
        await scanStream(`${mode}: run events (transcript)`, await runEvents(runId!, { view: 'transcript' }))
      }
    })

    it('resume data: the refusal, the run still waiting, its transcript', async () => {
      const suspended = await call(id, { ...valid, mode: 'suspend' }, { headers })
      const runId = suspended.headers.get('x-run-id')!
      expect(suspended.status).toBe(202)
      const refused = await scanError('invalid resume', await runAction(runId, 'resume', { resumeData: canaryFailing.resume }, { headers }))
      expect(refused.error.code).toBe('RESUME_VALIDATION_FAILED')
      const run = (await (await getRun(runId)).json()) as { status: string; transcript: unknown }
      expect(run.status).toBe('suspended')
      scan('after invalid resume: transcript', JSON.stringify(run.transcript))
      await scanStream('resume', await runAction(runId, 'resume', { resumeData: { answer: 'yes' } }, { headers, sse: true }))
    })

    it('MCP tools/call: every failing phase, 2025 session and 2026-07-28', async () => {
      const failing = [
        ['invalid input', canaryFailing.input, headers],
        ['bad output', { ...valid, mode: 'bad-output' }, headers],
        ['bad suspend', { ...valid, mode: 'bad-suspend' }, headers],
        ['invalid request context', valid, { 'x-request-context': JSON.stringify(canaryFailing.requestContext) }],
      ] as const
      for (const [what, args, sent] of failing) {
        const { client } = await connectMcp({ headers: sent })
        const result = await client.callTool({ name: id, arguments: args })
        expect(result.isError, `MCP ${what}`).toBe(true)
        scan(`MCP ${what}`, JSON.stringify(result))
        const modern = await SELF.fetch('http://tools.test/mcp', modernToolCall(id, args, {}, sent))
        scan(`MCP 2026-07-28 ${what}`, await modern.text())
      }
    })
  })

  it('found the secret nowhere', () => {
    expect(leaks).toEqual([])
  })
})
