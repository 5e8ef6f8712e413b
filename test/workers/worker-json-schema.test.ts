// A Worker checks plain JSON Schemas with @cfworker/json-schema only when its entry passes
// `jsonSchema: workerJsonSchema` (SPEC §11: the generated entry does when a tool has one, so an app
// of Zod / Valibot / ArkType schemas bundles no validator). Without it, a call that must check a
// plain JSON Schema fails with EXECUTION_FAILED saying what to pass: never skipped, and nothing else
// of the Worker is affected. (That a built Worker registers nothing else is test/e2e/json-schema-worker.test.ts.)
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createWorker, setJsonSchemaValidator, workerJsonSchema } from 'toolroute/workers'
import { jsonSchemaValidator } from '../../src/schema/json-schema-validator.ts'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const executed: string[] = []

const plain = createTool({
  id: 'plain',
  description: 'Plain JSON Schemas in and out',
  inputSchema: { type: 'object', properties: { n: { type: 'number' }, bad: { type: 'boolean' } }, required: ['n'], additionalProperties: false },
  outputSchema: { type: 'object', properties: { doubled: { type: 'number' } }, required: ['doubled'] },
  execute: async (input) => {
    const { n, bad } = input as { n: number; bad?: boolean }
    executed.push(`plain:${n}`)
    return bad ? { doubled: 'twice' } : { doubled: n * 2 }
  },
})
const tenant = createTool({
  id: 'tenant',
  description: 'A plain JSON Schema for its request context only',
  inputSchema: z.object({}),
  requestContextSchema: { type: 'object', properties: { tenant: { type: 'string', minLength: 1 } } },
  execute: async (_input, { requestContext }) => ({ tenant: requestContext?.get('tenant') }),
})
const greet = createTool({
  id: 'greet',
  description: 'Zod: validates itself',
  inputSchema: z.object({ name: z.string().min(1) }),
  execute: async ({ name }) => ({ message: `Hello, ${name}!` }),
})

const call = (worker: ReturnType<typeof createWorker>, toolId: string, input: unknown, headers: Record<string, string> = {}) =>
  worker.fetch(new Request(`http://tools.test/tools/${toolId}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(input) }), env, ctx)

describe('a Worker whose entry passes no jsonSchema (a hand-written entry, or a build that guessed wrong)', () => {
  const worker = createWorker({ tools: [plain, tenant, greet], mcp: false, idempotency: false })
  // The suite's own Worker (test/workers/worker.ts), evaluated in this isolate, registers one through
  // toolroute/server's createToolApp: cleared, to stand for an isolate where nothing did.
  beforeAll(() => {
    setJsonSchemaValidator(undefined)
    expect(jsonSchemaValidator()).toBeUndefined()
  })

  it('fails each call of the plain JSON Schema tool with EXECUTION_FAILED saying what to pass, before execute; its other tools answer', async () => {
    executed.length = 0
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    for (const input of [{ n: 2 }, { n: 'two' }]) {
      const response = await call(worker, 'plain', input)
      expect(response.status).toBe(500)
      const body = (await response.json()) as { error: { code: string; message: string } }
      expect(body.error.code).toBe('EXECUTION_FAILED')
      expect(body.error.message).toContain('inputSchema of tool "plain" is a plain JSON Schema, and no JSON Schema validator is registered')
      expect(body.error.message).toContain('pass `jsonSchema: workerJsonSchema` (from toolroute/workers) to createWorker')
    }
    expect(executed).toEqual([])
    const streamed = await call(worker, 'plain', { n: 2 }, { accept: 'text/event-stream' })
    const text = await streamed.text()
    expect(text).toContain('"type":"tool-output-error"')
    expect(text).toContain('no JSON Schema validator is registered')
    expect(text).not.toContain('tool-output-available')
    expect(executed).toEqual([])
    const context = await call(worker, 'tenant', {}, { 'x-request-context': JSON.stringify({ tenant: 'acme' }) })
    expect(context.status).toBe(500)
    expect((await context.json()) as object).toMatchObject({ error: { code: 'EXECUTION_FAILED', message: expect.stringContaining('requestContextSchema of tool "tenant" is a plain JSON Schema') } })
    const greeted = await call(worker, 'greet', { name: 'Ada' })
    expect(greeted.status).toBe(200)
    expect(await greeted.json()).toMatchObject({ status: 'completed', output: { message: 'Hello, Ada!' } })
    expect((await (await call(worker, 'greet', { name: '' })).json()) as object).toMatchObject({ error: { code: 'INPUT_VALIDATION_FAILED' } })
    // The log says it once per schema, for whoever deploys (the caller gets it with each call).
    const missing = logged.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('no JSON Schema validator'))
    expect(missing.map((message) => message.slice(0, message.indexOf(' is a plain')))).toEqual(['toolroute: inputSchema of tool "plain"', 'toolroute: requestContextSchema of tool "tenant"'])
    logged.mockRestore()
  })
})

describe('a Worker whose entry passes jsonSchema: workerJsonSchema (what toolroute build writes when a tool has a plain JSON Schema)', () => {
  let worker: ReturnType<typeof createWorker>
  // Created here, after the tests above: the validator is registered for the isolate.
  beforeAll(() => {
    worker = createWorker({ tools: [plain, tenant, greet], mcp: false, idempotency: false, jsonSchema: workerJsonSchema })
  })

  it('answers a valid call, and rejects bad input with INPUT_VALIDATION_FAILED and its issues before execute', async () => {
    executed.length = 0
    const ok = await call(worker, 'plain', { n: 2 })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ status: 'completed', output: { doubled: 4 } })
    expect(executed).toEqual(['plain:2'])
    for (const [input, path] of [
      [{ n: 'two' }, ['n']],
      [{}, []],
      [{ n: 1, extra: true }, ['extra']],
    ] as const) {
      const bad = await call(worker, 'plain', input)
      expect(bad.status).toBe(400)
      const body = (await bad.json()) as { error: { code: string; issues: { path: unknown[] }[] } }
      expect(body.error.code).toBe('INPUT_VALIDATION_FAILED')
      expect(body.error.issues[0]!.path).toEqual(path)
    }
    expect(executed).toEqual(['plain:2'])
  })

  it('checks the output and the request context against their plain JSON Schemas too', async () => {
    const output = await call(worker, 'plain', { n: 1, bad: true })
    expect(output.status).toBe(500)
    expect(((await output.json()) as { error: { code: string } }).error.code).toBe('OUTPUT_VALIDATION_FAILED')
    const context = await call(worker, 'tenant', {}, { 'x-request-context': JSON.stringify({ tenant: '' }) })
    expect(context.status).toBe(400)
    expect(((await context.json()) as { error: { code: string } }).error.code).toBe('REQUEST_CONTEXT_VALIDATION_FAILED')
    const tenant = await call(worker, 'tenant', {}, { 'x-request-context': JSON.stringify({ tenant: 'acme' }) })
    expect(await tenant.json()).toMatchObject({ status: 'completed', output: { tenant: 'acme' } })
    const streamed = await (await call(worker, 'plain', { n: 'two' }, { accept: 'text/event-stream' })).text()
    expect(streamed).toContain('"type":"tool-input-error"')
    expect(streamed).toContain('n: Instance type')
  })
})
