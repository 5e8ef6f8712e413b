import { SELF } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { callTool, chunkedBody, origin, readProbe } from './http-client.ts'

type ErrorBody = { error: { code: string; message: string; issues?: { path: (string | number)[]; message: string }[] } }

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody['error']> {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = JSON.parse(text) as ErrorBody
  expect(body.error.code).toBe(code)
  expect(Object.keys(body)).toEqual(['error'])
  expect(typeof body.error.message).toBe('string')
  // Never a stack trace: no "at fn (file:line)" frames, no source paths.
  expect(text).not.toMatch(/\bat .+\(.*:\d+:\d+\)|\.ts:\d+|\.js:\d+/)
  return body.error
}

const tenant = (tenantId: unknown) => ({ 'x-request-context': JSON.stringify({ tenantId }) })

describe('TOOL_NOT_FOUND', () => {
  it('answers 404 for an unknown tool id', async () => {
    const error = await expectError(await callTool('nope', { location: 'x' }), 404, 'TOOL_NOT_FOUND')
    expect(error.message).toContain('nope')
  })
})

describe('REQUEST_CONTEXT_VALIDATION_FAILED', () => {
  it('answers 400 when the request context is missing', async () => {
    const error = await expectError(await callTool('lookup-customer', { email: 'ada@example.com' }), 400, 'REQUEST_CONTEXT_VALIDATION_FAILED')
    expect(error.issues?.[0]?.path).toEqual(['tenantId'])
  })

  it('answers 400 when x-request-context is not JSON, or not an object', async () => {
    for (const header of ['{tenantId: acme}', '[1,2]', '"acme"', 'null']) {
      await expectError(await callTool('lookup-customer', { email: 'ada@example.com' }, { headers: { 'x-request-context': header } }), 400, 'REQUEST_CONTEXT_VALIDATION_FAILED')
    }
  })

  it('answers 400 with issues when the context breaks its schema', async () => {
    const error = await expectError(await callTool('lookup-customer', { email: 'ada@example.com' }, { headers: tenant(42) }), 400, 'REQUEST_CONTEXT_VALIDATION_FAILED')
    expect(error.issues).toEqual([{ path: ['tenantId'], message: expect.any(String) }])
  })

  it('never shows the values of secret keys, in the message or the issues', async () => {
    const context = { tenantId: 'ab', apiKey: 'hunter2-live-key', password: 'pw-swordfish' }
    const response = await callTool('secret-context-tool', { q: 'x' }, { headers: { 'x-request-context': JSON.stringify(context) } })
    const text = await response.clone().text()
    const error = await expectError(response, 400, 'REQUEST_CONTEXT_VALIDATION_FAILED')
    expect(error.issues!.map((issue) => issue.path[0]).sort()).toEqual(['apiKey', 'password', 'tenantId'])
    expect(text).not.toContain('hunter2-live-key')
    expect(text).not.toContain('pw-swordfish')
    // The non-secret value may be named, so the caller can fix it.
    expect(error.message).toContain('tenantId')
  })

  it('accepts a valid context and hands it to execute', async () => {
    const response = await callTool('lookup-customer', { email: 'ada@example.com' }, { headers: tenant('acme') })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { output: { id: string } }).output.id).toBe('cus_acme_42')
  })
})

describe('UNSUPPORTED_MEDIA_TYPE', () => {
  it('answers 415 for a body that is not application/json, or has no content-type', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      await expectError(await callTool('weather-tool', '{"location":"Paris"}', { headers: { 'content-type': contentType } }), 415, 'UNSUPPORTED_MEDIA_TYPE')
    }
    const bare = await SELF.fetch(`${origin}/tools/weather-tool`, { method: 'POST', body: new TextEncoder().encode('{"location":"Paris"}') })
    await expectError(bare, 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  it('accepts application/json with parameters and +json types', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
      expect((await callTool('weather-tool', { location: 'Paris' }, { headers: { 'content-type': contentType } })).status).toBe(200)
    }
  })
})

describe('INVALID_JSON', () => {
  it('answers 400 for a body that is not JSON', async () => {
    for (const body of ['{"location":', 'location=Paris', '{location: "Paris"}']) {
      await expectError(await callTool('weather-tool', body), 400, 'INVALID_JSON')
    }
  })
})

describe('INPUT_VALIDATION_FAILED', () => {
  it('answers 400 with issues[].path into the input', async () => {
    const error = await expectError(await callTool('audited-search', { query: '', limit: 100 }), 400, 'INPUT_VALIDATION_FAILED')
    expect(error.issues!.map((issue) => issue.path)).toEqual(expect.arrayContaining([['query'], ['limit']]))
    for (const issue of error.issues!) expect(issue.message).toEqual(expect.any(String))
  })

  it('answers 400 when the input is missing or not an object', async () => {
    await expectError(await callTool('weather-tool', '[]'), 400, 'INPUT_VALIDATION_FAILED')
    await expectError(await callTool('weather-tool', ''), 400, 'INPUT_VALIDATION_FAILED')
  })

  it('runs neither onInputAvailable nor execute', async () => {
    const toolCallId = `invalid-${crypto.randomUUID()}`
    await expectError(await callTool('input-recorder', { text: 5 }, { headers: { 'x-tool-call-id': toolCallId } }), 400, 'INPUT_VALIDATION_FAILED')
    const hooks = await readProbe(toolCallId)
    expect(hooks[0]).toBe('start')
    expect(hooks).not.toContain('available')
  })

  it('answers 400 (not a stream) to an SSE caller whose body is complete', async () => {
    await expectError(await callTool('weather-tool', { location: 3 }, { sse: true }), 400, 'INPUT_VALIDATION_FAILED')
  })
})

describe('PAYLOAD_TOO_LARGE', () => {
  it('answers 413 for a content-length over 1 MiB, before reading the body', async () => {
    const toolCallId = `big-${crypto.randomUUID()}`
    const response = await callTool('input-recorder', { text: 'y'.repeat(1024 * 1024 + 1) }, { headers: { 'x-tool-call-id': toolCallId } })
    await expectError(response, 413, 'PAYLOAD_TOO_LARGE')
    expect(await readProbe(toolCallId)).toEqual([])
  })

  it('answers 413 for a chunked body that grows past 1 MiB', async () => {
    const body = chunkedBody()
    const sent = callToolChunked('weather-tool', body.stream)
    const chunk = 'x'.repeat(64 * 1024)
    body.send('{"location":"')
    for (let index = 0; index < 17; index++) body.send(chunk)
    body.send('"}')
    body.end()
    await expectError(await sent, 413, 'PAYLOAD_TOO_LARGE')
  })

  it('accepts a body just under the limit', async () => {
    const response = await callTool('weather-tool', JSON.stringify({ location: 'x'.repeat(1024 * 1024 - 20) }))
    expect(response.status).toBe(200)
  })
})

function callToolChunked(toolId: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return SELF.fetch(`${origin}/tools/${toolId}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
}

describe('OUTPUT_VALIDATION_FAILED', () => {
  it('answers 500 when execute returns output against outputSchema', async () => {
    const response = await callTool('bad-output-tool', {})
    expect(response.headers.get('x-run-id')).toBeTruthy()
    const error = await expectError(response, 500, 'OUTPUT_VALIDATION_FAILED')
    expect(error.issues?.[0]?.path).toEqual(['count'])
    // A direct call's message shows the returned output; an HTTP caller never gets raw output.
    expect(error.message).not.toContain('Returned output')
    expect(error.message).not.toContain('many')
  })
})

describe('EXECUTION_FAILED', () => {
  it("answers 500 with execute's message and no stack", async () => {
    const response = await callTool('failing-tool', { message: 'the database is on fire' })
    expect(response.headers.get('x-run-id')).toBeTruthy()
    expect(response.headers.get('x-tool-call-id')).toBeTruthy()
    const error = await expectError(response, 500, 'EXECUTION_FAILED')
    expect(error.message).toBe('the database is on fire')
  })

  it("writes execute's stack to the server's log, naming the tool and the run", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const response = await callTool('failing-tool', { message: 'the log sees this' })
      expect(response.status).toBe(500)
      const runId = response.headers.get('x-run-id')
      const call = logged.mock.calls.find(([first]) => String(first).startsWith('toolroute: tool failing-tool failed'))
      expect(call?.[0]).toBe(`toolroute: tool failing-tool failed (run ${runId}):`)
      expect(call?.[1]).toBeInstanceOf(Error)
      expect((call?.[1] as Error).message).toBe('the log sees this')
      expect((call?.[1] as Error).stack).toMatch(/test-tools\.ts:\d+/)
    } finally {
      logged.mockRestore()
    }
  })

  it('ends an SSE stream with tool-output-error, its message and no stack', async () => {
    const response = await callTool('failing-tool', { message: 'boom at midnight' }, { sse: true })
    expect(response.status).toBe(200)
    const { events, done } = await readSse(response)
    expect(done).toBe(true)
    expect(typesOf(events).slice(-2)).toEqual(['tool-output-error', 'finish'])
    expect(events.at(-2)).toMatchObject({ errorText: 'boom at midnight' })
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'error' })
    expect(JSON.stringify(events)).not.toMatch(/\.ts:\d+|\.js:\d+/)
  })
})

describe('SUSPEND_VALIDATION_FAILED', () => {
  it('answers 500 when suspend() gets a payload against suspendSchema', async () => {
    const error = await expectError(await callTool('bad-suspend-tool', {}), 500, 'SUSPEND_VALIDATION_FAILED')
    expect(error.issues?.[0]?.path).toEqual(['question'])
  })
})

describe('validation order: tool → request context → body (size, media type, JSON) → input', () => {
  const badContext = { 'x-request-context': 'not json' }

  it('an unknown tool wins over a bad request context and a bad body', async () => {
    await expectError(await callTool('nope', 'not json', { headers: { ...badContext, 'content-type': 'text/plain' } }), 404, 'TOOL_NOT_FOUND')
  })

  it('a bad request context wins over a bad body', async () => {
    await expectError(await callTool('lookup-customer', '{oops', { headers: badContext }), 400, 'REQUEST_CONTEXT_VALIDATION_FAILED')
    await expectError(await callTool('lookup-customer', '{oops', { headers: { 'content-type': 'text/plain' } }), 400, 'REQUEST_CONTEXT_VALIDATION_FAILED')
    await expectError(await callTool('lookup-customer', 'x'.repeat(1024 * 1024 + 1), { headers: badContext }), 400, 'REQUEST_CONTEXT_VALIDATION_FAILED')
  })

  it('size comes before media type, media type before JSON', async () => {
    await expectError(await callTool('weather-tool', 'x'.repeat(1024 * 1024 + 1), { headers: { 'content-type': 'text/plain' } }), 413, 'PAYLOAD_TOO_LARGE')
    await expectError(await callTool('weather-tool', '{oops', { headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  it('invalid JSON comes before the input schema', async () => {
    await expectError(await callTool('lookup-customer', '{"email": 1', { headers: tenant('acme') }), 400, 'INVALID_JSON')
  })

  it('a failure changes no state and runs no hooks before the input phase', async () => {
    const toolCallId = `order-${crypto.randomUUID()}`
    await expectError(await callTool('input-recorder', '{"text":"a"}', { headers: { 'x-tool-call-id': toolCallId, 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE')
    expect(await readProbe(toolCallId)).toEqual([])
  })
})
