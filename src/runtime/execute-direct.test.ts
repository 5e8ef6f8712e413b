import { toStandardJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from './create-tool.ts'
import { cfworkerJsonSchema } from '../schema/cfworker-json-schema.ts'
import { setJsonSchemaValidator } from '../schema/json-schema-validator.ts'
import { RequestContext } from '../tool/request-context.ts'
import { recordingObserve, silenceConsole, weather } from '../../test/shared/direct-call-helpers.ts'

// Plain JSON Schemas below: checked as outside Workers, where `import 'toolroute'` registers the validator.
setJsonSchemaValidator(cfworkerJsonSchema)

// `tool.execute()` (Mastra's direct call), part 1: input, request context, output.
// Part 2 (hooks, the execution context, abortSignal, suspend and resume) is execute-direct-context.test.ts.

afterEach(() => {
  vi.restoreAllMocks()
})

describe('tool.execute() — input', () => {
  it('returns the validated output (the output schema strips unknown keys)', async () => {
    const { tool } = weather(vi.fn(async ({ location }) => ({ location, temperatureCelsius: 21, conditions: 'sunny', debug: 'x' })))
    expect(await tool.execute({ location: 'Lisbon' })).toEqual({ location: 'Lisbon', temperatureCelsius: 21, conditions: 'sunny' })
  })

  it("returns Mastra's validation error for bad input, and execute never runs", async () => {
    const { tool, execute } = weather()
    const result = await tool.execute({ location: '' })
    expect(result).toEqual({
      error: true,
      message: expect.stringMatching(
        /^Tool input validation failed for weather-tool\. Please fix the following errors and try again:\n- location: .+\n\nProvided arguments: \{\n {2}"location": ""\n\}$/,
      ),
      validationErrors: { errors: [], fields: { location: { errors: [expect.any(String)], fields: {} } } },
    })
    expect(execute).not.toHaveBeenCalled()
  })

  it('does not throw for bad input (a result, not an exception)', async () => {
    const { tool } = weather()
    await expect(tool.execute(42 as never)).resolves.toMatchObject({ error: true, validationErrors: { errors: [expect.any(String)] } })
  })

  it('truncates a long input in the message', async () => {
    const { tool } = weather()
    const result = (await tool.execute({ location: '', units: 'x'.repeat(500) } as never)) as { message: string }
    expect(result.message).toContain('... (truncated)')
    expect(result.message.length).toBeLessThan(600)
  })

  it('treats null for an optional field as absent before validation fails', async () => {
    const { tool, execute } = weather()
    expect(await tool.execute({ location: 'Oslo', units: null } as never)).toMatchObject({ location: 'Oslo' })
    expect(execute.mock.calls[0]![0]).toEqual({ location: 'Oslo' })
  })

  it('passes the parsed input (defaults and transforms applied) to execute', async () => {
    const execute = vi.fn(async (input: { q: string; limit: number }) => input)
    const tool = createTool({
      id: 'search',
      description: 'x',
      inputSchema: z.object({ q: z.string().trim(), limit: z.number().default(10) }),
      execute,
    })
    expect(await tool.execute({ q: '  cats ' } as never)).toEqual({ q: 'cats', limit: 10 })
  })

  it('without an input schema, execute gets the input as given', async () => {
    const tool = createTool({ id: 'echo', description: 'x', execute: async (input) => input })
    expect(await tool.execute({ anything: [1] })).toEqual({ anything: [1] })
  })

  it('validates with a plain JSON Schema too', async () => {
    const tool = createTool({
      id: 'json-schema-tool',
      description: 'x',
      inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] },
      execute: async (input) => input,
    })
    expect(await tool.execute({ n: 2 })).toEqual({ n: 2 })
    expect(await tool.execute({ n: 0 })).toMatchObject({ error: true, validationErrors: { fields: { n: { errors: [expect.any(String)] } } } })
  })
})

describe('tool.execute() — request context', () => {
  const contextTool = (execute = vi.fn(async (_input: unknown, context: any) => ({ userId: context.requestContext.get('userId'), plan: context.requestContext.get('plan') }))) => ({
    execute,
    tool: createTool({
      id: 'whoami',
      description: 'x',
      inputSchema: z.object({ q: z.string() }),
      requestContextSchema: z.object({ userId: z.string(), plan: z.enum(['free', 'pro']).default('free'), apiKey: z.string().min(20) }),
      execute,
    }),
  })
  const key = 'sk-live-0123456789abcdef'

  it('validates the request context; execute sees the validated values of a plain object (defaults applied)', async () => {
    const { tool } = contextTool()
    expect(await tool.execute({ q: 'x' }, { requestContext: { userId: 'u_1', apiKey: key } })).toEqual({ userId: 'u_1', plan: 'free' })
  })

  it('uses a RequestContext passed in as it is when the tool has no requestContextSchema', async () => {
    const execute = vi.fn(async () => 'ok')
    const tool = createTool({ id: 'plain-context', description: 'x', execute })
    const requestContext = new RequestContext({ userId: 'u_2' })
    await tool.execute({}, { requestContext })
    expect((execute.mock.calls[0] as unknown[])[1]).toHaveProperty('requestContext', requestContext)
  })

  it('with a requestContextSchema, execute sees the parsed values over the caller\'s RequestContext, which keeps its raw ones', async () => {
    const { tool, execute } = contextTool()
    const requestContext = new RequestContext<Record<string, unknown>>({ userId: 'u_2', apiKey: key, extra: 'kept' })
    expect(await tool.execute({ q: 'x' }, { requestContext: requestContext as never })).toEqual({ userId: 'u_2', plan: 'free' })
    const seen = execute.mock.calls[0]![1].requestContext as RequestContext
    expect(seen).not.toBe(requestContext)
    expect(seen.all).toEqual({ userId: 'u_2', plan: 'free', apiKey: key, extra: 'kept' })
    expect(requestContext.all).toEqual({ userId: 'u_2', apiKey: key, extra: 'kept' })
  })

  it('a Mastra-style context or a Map is read through get/set/entries (a migration passes its own)', async () => {
    const { tool } = contextTool()
    expect(await tool.execute({ q: 'x' }, { requestContext: new Map([['userId', 'u_3'], ['apiKey', key]]) as never })).toEqual({ userId: 'u_3', plan: 'free' })
  })

  it('returns a request context error, and execute never runs', async () => {
    const { tool, execute } = contextTool()
    const result = await tool.execute({ q: 'x' }, { requestContext: { userId: 7, apiKey: key } as never })
    expect(result).toMatchObject({
      error: true,
      message: expect.stringMatching(/^Request context validation failed for whoami\. Please fix the following errors and try again:\n- userId: /),
      validationErrors: { fields: { userId: { errors: [expect.any(String)] } } },
    })
    expect(execute).not.toHaveBeenCalled()
  })

  it('a missing request context fails against the schema', async () => {
    const { tool } = contextTool()
    expect(await tool.execute({ q: 'x' })).toMatchObject({ error: true, message: expect.stringContaining('Request context validation failed for whoami') })
  })

  it("Mastra's order: bad input is reported before a bad request context; a bad context alone fails, and no input hook runs", async () => {
    const onInputStart = vi.fn()
    const tool = createTool({ id: 'whoami', description: 'x', inputSchema: z.object({ q: z.string() }), requestContextSchema: z.object({ userId: z.string() }), onInputStart, execute: async () => 'ok' })
    const result = (await tool.execute({ q: 5 } as never, { requestContext: {} })) as { message: string }
    expect(result.message).toMatch(/^Tool input validation failed for whoami/)
    expect(await tool.execute({ q: 'x' }, { requestContext: {} })).toMatchObject({ message: expect.stringMatching(/^Request context validation failed for whoami/) })
    expect(onInputStart).not.toHaveBeenCalled()
    expect(await tool.execute({ q: 5 } as never, { requestContext: { userId: 'u_1' } })).toMatchObject({ message: expect.stringMatching(/^Tool input validation failed for whoami/) })
  })

  it('never puts a value in the issues, and hides the values of secret-looking keys from the preview', async () => {
    const tool = createTool({
      id: 'secrets',
      description: 'x',
      // Valibot echoes received values in its messages ("received \"hunter2\""): the worst case.
      requestContextSchema: toStandardJsonSchema(
        v.object({
          userId: v.number(),
          password: v.number(),
          apiKey: v.number(),
          api_key: v.number(),
          accessToken: v.number(),
          authorization: v.number(),
          credentials: v.object({ clientSecret: v.number() }),
        }),
      ),
      execute: async () => 'never',
    })
    const secrets = ['hunter2-pw', 'sk-apikey-1', 'sk-api_key-2', 'tok-3', 'Bearer abc', 'client-s3cret']
    const result = (await tool.execute({}, {
      requestContext: {
        userId: 'visible-user',
        password: secrets[0],
        apiKey: secrets[1],
        api_key: secrets[2],
        accessToken: secrets[3],
        authorization: secrets[4],
        credentials: { clientSecret: secrets[5] },
      } as never,
    })) as { message: string; validationErrors: unknown }
    expect(result.message).toMatch(/^Request context validation failed for secrets/)
    for (const secret of secrets) {
      expect(result.message).not.toContain(secret)
      expect(JSON.stringify(result.validationErrors)).not.toContain(secret)
    }
    expect(result.message).toContain('[REDACTED]')
    expect(result.message).toContain('visible-user')
    // Every issue says what was expected, never what came: secret-looking key or not.
    for (const field of ['userId', 'password', 'apiKey', 'api_key', 'accessToken', 'authorization', 'credentials.clientSecret']) expect(result.message).toContain(`- ${field}: Invalid type: Expected number\n`)
  })
})

describe('tool.execute() — output', () => {
  const badOutput = (outputValidation?: 'warn' | 'error') =>
    createTool({
      id: 'bad-output',
      description: 'x',
      outputSchema: z.object({ count: z.number() }),
      ...(outputValidation ? { outputValidation } : {}),
      execute: async () => ({ count: 'many' }) as never,
    })

  it("fails by default with Mastra's output validation error", async () => {
    expect(await badOutput().execute({})).toEqual({
      error: true,
      message: expect.stringMatching(/^Tool output validation failed for bad-output\. The tool returned invalid output:\n- count: .*\n\nReturned output: \{\n  "count": "many"\n\}$/s),
      validationErrors: { errors: [], fields: { count: { errors: [expect.any(String)], fields: {} } } },
    })
    expect(await badOutput('error').execute({})).toMatchObject({ error: true })
  })

  it('shows a long returned output truncated at 200 characters', async () => {
    const tool = createTool({ id: 'long-output', description: 'x', outputSchema: z.object({ n: z.number() }), execute: async () => ({ n: 'x'.repeat(500) }) as never })
    const result = (await tool.execute({})) as { message: string }
    expect(result.message).toMatch(/\n\nReturned output: \{\n  "n": "x+\.\.\. \(truncated\)$/)
    expect(result.message.split('Returned output: ')[1]).toHaveLength(200 + '... (truncated)'.length)
  })

  it("with outputValidation: 'warn', logs and returns the output as execute returned it", async () => {
    const console = silenceConsole()
    expect(await badOutput('warn').execute({})).toEqual({ count: 'many' })
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('Tool output validation failed for bad-output'), {
      issues: [{ path: ['count'], message: expect.any(String) }],
    })
  })

  it("with outputValidation: 'warn', the warning goes to the caller's observe when given", async () => {
    const { observe, logs } = recordingObserve()
    const console = silenceConsole()
    await badOutput('warn').execute({}, { observe })
    expect(logs).toEqual([{ level: 'warn', message: expect.stringContaining('Tool output validation failed'), data: { issues: expect.any(Array) } }])
    expect(console.warn).not.toHaveBeenCalled()
  })

  it('an error thrown by execute is thrown again, as Mastra does', async () => {
    const error = new Error('upstream down')
    const tool = createTool({ id: 'thrower', description: 'x', execute: async () => Promise.reject(error) })
    await expect(tool.execute({})).rejects.toBe(error)
    const syncThrow = createTool({
      id: 'sync-thrower',
      description: 'x',
      execute: (() => {
        throw error
      }) as never,
    })
    await expect(syncThrow.execute({})).rejects.toBe(error)
  })

  it('a tool without execute has no direct execute, as in Mastra', () => {
    const tool = createTool({ id: 'no-execute', description: 'x' })
    expect(tool.execute).toBeUndefined()
  })

  it('does not run toModelOutput on a direct call (only a model reads it)', async () => {
    const toModelOutput = vi.fn(() => 'text')
    const tool = createTool({ id: 'model', description: 'x', toModelOutput, execute: async () => ({ a: 1 }) })
    expect(await tool.execute({})).toEqual({ a: 1 })
    expect(toModelOutput).not.toHaveBeenCalled()
  })
})
