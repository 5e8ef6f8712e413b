import { toStandardJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from '../tool/create-tool.ts'
import type { ToolObserve } from '../tool/tool-types.ts'
import { RequestContext } from '../tool/request-context.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

function silenceConsole() {
  return { warn: vi.spyOn(console, 'warn').mockImplementation(() => {}), error: vi.spyOn(console, 'error').mockImplementation(() => {}) }
}

function recordingObserve() {
  const logs: { level: string; message: string; data?: Record<string, unknown> }[] = []
  const spans: string[] = []
  const observe: ToolObserve = {
    async span(name, fn) {
      spans.push(name)
      return fn()
    },
    log(level, message, data) {
      logs.push({ level, message, ...(data ? { data } : {}) })
    },
  }
  return { observe, logs, spans }
}

const weather = (execute = vi.fn(async ({ location }: { location: string }) => ({ location, temperatureCelsius: 21, conditions: 'sunny' }))) => ({
  execute,
  tool: createTool({
    id: 'weather-tool',
    description: 'Weather',
    inputSchema: z.object({ location: z.string().min(1), units: z.enum(['c', 'f']).optional() }),
    outputSchema: z.object({ location: z.string(), temperatureCelsius: z.number(), conditions: z.string() }),
    execute,
  }),
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

  it('checks input before the request context: bad input wins', async () => {
    const { tool } = contextTool()
    const result = (await tool.execute({ q: 5 } as never, { requestContext: {} })) as { message: string }
    expect(result.message).toMatch(/^Tool input validation failed for whoami/)
  })

  it('never puts the values of secret-looking keys in the message', async () => {
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
    for (const field of ['password', 'apiKey', 'api_key', 'accessToken', 'authorization']) expect(result.message).toContain(`- ${field}: Invalid value`)
    expect(result.message).toContain('- credentials.clientSecret: Invalid value')
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

describe('tool.execute() — hooks', () => {
  function hookedTool(overrides: Record<string, unknown> = {}) {
    const calls: string[] = []
    const seen: Record<string, any> = {}
    const tool = createTool({
      id: 'hooked',
      description: 'x',
      inputSchema: z.object({ q: z.string(), limit: z.number().optional() }),
      outputSchema: z.object({ hits: z.number() }),
      onInputStart: (options) => {
        calls.push('onInputStart')
        seen.onInputStart = options
      },
      onInputDelta: () => {
        calls.push('onInputDelta')
      },
      onInputAvailable: (options) => {
        calls.push('onInputAvailable')
        seen.onInputAvailable = options
      },
      execute: async (_input, context) => {
        calls.push('execute')
        seen.execute = context.agent
        return { hits: 3 }
      },
      onOutput: (options) => {
        calls.push('onOutput')
        seen.onOutput = options
      },
      ...overrides,
    })
    return { tool, calls, seen }
  }

  it('run in order onInputStart → onInputAvailable → execute → onOutput (no deltas for a parsed input)', async () => {
    const { tool, calls } = hookedTool()
    await tool.execute({ q: 'cats' })
    expect(calls).toEqual(['onInputStart', 'onInputAvailable', 'execute', 'onOutput'])
  })

  it("get one tool call id (the agent's when given), the messages, the parsed input and the output", async () => {
    const { tool, seen } = hookedTool()
    const messages = [{ role: 'user', content: 'find cats' }]
    await tool.execute({ q: 'cats', limit: null } as never, { agent: { toolCallId: 'call_agent_1', messages } })
    expect(seen.onInputStart).toMatchObject({ toolCallId: 'call_agent_1', messages })
    expect(seen.onInputAvailable).toMatchObject({ toolCallId: 'call_agent_1', input: { q: 'cats' } })
    expect(seen.execute).toMatchObject({ toolCallId: 'call_agent_1', messages })
    expect(seen.onOutput).toEqual({ toolCallId: 'call_agent_1', abortSignal: undefined, output: { hits: 3 }, toolName: 'hooked' })
  })

  it('generate an AI SDK style tool call id when the caller gives none, the same for every hook', async () => {
    const { tool, seen } = hookedTool()
    await tool.execute({ q: 'cats' })
    expect(seen.onInputStart.toolCallId).toMatch(/^call_[0-9a-f]{24}$/)
    expect(seen.onOutput.toolCallId).toBe(seen.onInputStart.toolCallId)
    expect(seen.onInputAvailable.toolCallId).toBe(seen.onInputStart.toolCallId)
    // No agent fields: no agent, as in Mastra (the hooks still share one id).
    expect(seen.execute).toBeUndefined()
  })

  it('onOutput does not run when the call fails', async () => {
    const { tool, calls } = hookedTool({ execute: async () => ({ hits: 'x' }) })
    expect(await tool.execute({ q: 'cats' })).toMatchObject({ error: true })
    expect(calls).toEqual(['onInputStart', 'onInputAvailable'])
  })

  it('onInputAvailable does not run for bad input', async () => {
    const { tool, calls } = hookedTool()
    await tool.execute({ q: 1 } as never)
    expect(calls).toEqual(['onInputStart'])
  })

  it.each(['onInputStart', 'onInputAvailable', 'onOutput'])('a throwing %s is logged and never fails the call', async (hook) => {
    const console = silenceConsole()
    const { tool, calls } = hookedTool({
      [hook]: async () => {
        calls.push(hook)
        throw new Error(`${hook} broke`)
      },
    })
    expect(await tool.execute({ q: 'cats' })).toEqual({ hits: 3 })
    expect(calls).toEqual(['onInputStart', 'onInputAvailable', 'execute', 'onOutput'])
    expect(console.warn).toHaveBeenCalledWith(`${hook} hook failed: ${hook} broke`, { hook })
  })

  it("a throwing hook is logged to the caller's observe when given", async () => {
    const { observe, logs } = recordingObserve()
    const { tool } = hookedTool({
      onInputStart: () => {
        throw 'plain string'
      },
    })
    await tool.execute({ q: 'cats' }, { observe })
    expect(logs).toEqual([{ level: 'warn', message: 'onInputStart hook failed: plain string', data: { hook: 'onInputStart' } }])
  })

  it('hooks are awaited before the next step', async () => {
    const calls: string[] = []
    const tool = createTool({
      id: 'slow-hooks',
      description: 'x',
      onInputStart: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        calls.push('onInputStart done')
      },
      execute: async () => {
        calls.push('execute')
        return 'ok'
      },
    })
    await tool.execute({})
    expect(calls).toEqual(['onInputStart done', 'execute'])
  })
})

describe('tool.execute() — execution context', () => {
  it('always has observe, an abortSignal, a requestContext and suspend; no agent without agent fields', async () => {
    let context: any
    const tool = createTool({ id: 'ctx', description: 'x', execute: async (_input, ctx) => ((context = ctx), 'ok') })
    await tool.execute({})
    expect(typeof context.observe.span).toBe('function')
    expect(typeof context.observe.log).toBe('function')
    expect(context.abortSignal).toBeInstanceOf(AbortSignal)
    expect(context.abortSignal.aborted).toBe(false)
    expect(context.abortSignal).toBe(context.abortSignal)
    expect(context.requestContext).toBeInstanceOf(RequestContext)
    expect(context.requestContext.size()).toBe(0)
    expect(typeof context.suspend).toBe('function')
    expect(context.suspend).toBe(context.suspend)
    expect(context.agent).toBeUndefined()
    expect(context.runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(context.mcp).toBeUndefined()
    expect(context.workflow).toBeUndefined()
    expect(context.resumeData).toBeUndefined()
  })

  it('passes the caller runId, mcp and workflow contexts through', async () => {
    let context: any
    const tool = createTool({ id: 'ctx', description: 'x', execute: async (_input, ctx) => ((context = ctx), 'ok') })
    const mcp = { elicitation: { sendRequest: async () => ({ action: 'cancel' as const }) }, extra: { sessionId: 's' } }
    const workflow = { runId: 'wf_run', workflowId: 'wf', state: {}, setState: () => {}, suspend: async () => {} }
    await tool.execute({}, { runId: 'run_given', mcp, workflow })
    expect(context.runId).toBe('run_given')
    expect(context.mcp).toBe(mcp)
    // The workflow's own fields, its suspend the context's (validated against suspendSchema first).
    expect(context.workflow).toEqual({ ...workflow, suspend: context.suspend })
  })

  it("an agent's fields: agentId defaults to '', given ones are kept, one object per call", async () => {
    let context: any
    const tool = createTool({ id: 'ctx', description: 'x', execute: async (_input, ctx) => ((context = ctx), 'ok') })
    await tool.execute({}, { agent: { toolCallId: 'call_1', messages: [], threadId: 't_1', custom: 'kept' } })
    expect(context.agent).toEqual({ agentId: '', toolCallId: 'call_1', messages: [], threadId: 't_1', custom: 'kept', suspend: context.suspend })
    expect(context.agent).toBe(context.agent)
    await tool.execute({}, { toolCallId: 'call_2', messages: [{ role: 'user', content: 'hi' }], agentId: 'support', resourceId: 'r_1' })
    expect(context.agent).toMatchObject({ agentId: 'support', toolCallId: 'call_2', messages: [{ role: 'user', content: 'hi' }], resourceId: 'r_1' })
    // A flat toolCallId without messages is no agent call (Mastra's rule).
    await tool.execute({}, { toolCallId: 'call_3' })
    expect(context.agent).toBeUndefined()
  })

  it('flat workflow fields move under workflow', async () => {
    let context: any
    const tool = createTool({ id: 'ctx', description: 'x', execute: async (_input, ctx) => ((context = ctx), 'ok') })
    const setState = () => {}
    await tool.execute({}, { workflowId: 'wf', runId: 'wf_run', state: { n: 1 }, setState })
    expect(context.workflow).toMatchObject({ workflowId: 'wf', runId: 'wf_run', state: { n: 1 }, setState })
    expect(context.agent).toBeUndefined()
  })

  it('observe works from execute: spans and logs reach the observe the caller gave', async () => {
    const { observe, logs, spans } = recordingObserve()
    const tool = createTool({
      id: 'observed',
      description: 'x',
      execute: async (_input, { observe: o }) => {
        o.log('info', 'start', { step: 1 })
        return o.span('lookup', async () => 'found')
      },
    })
    expect(await tool.execute({}, { observe })).toBe('found')
    expect(spans).toEqual(['lookup'])
    expect(logs).toEqual([{ level: 'info', message: 'start', data: { step: 1 } }])
  })

  it('observe works from execute without one given: spans run, errors go to the console', async () => {
    const console = silenceConsole()
    const tool = createTool({
      id: 'observed',
      description: 'x',
      execute: async (_input, { observe }) => {
        observe.log('info', 'quiet')
        observe.log('error', 'loud', { code: 1 })
        return observe.span('work', () => 7)
      },
    })
    expect(await tool.execute({})).toBe(7)
    expect(console.error).toHaveBeenCalledWith('loud', { code: 1 })
    expect(console.warn).not.toHaveBeenCalled()
  })

  it('accepts null as the context', async () => {
    const tool = createTool({ id: 'null-ctx', description: 'x', execute: async () => 'ok' })
    expect(await tool.execute({}, null as never)).toBe('ok')
  })
})

describe('tool.execute() — abortSignal', () => {
  it('an already aborted signal rejects with its reason, and execute never runs', async () => {
    const execute = vi.fn(async () => 'ran')
    const tool = createTool({ id: 'abortable', description: 'x', execute })
    const controller = new AbortController()
    const reason = new Error('caller gave up')
    controller.abort(reason)
    await expect(tool.execute({}, { abortSignal: controller.signal })).rejects.toBe(reason)
    expect(execute).not.toHaveBeenCalled()
  })

  it('aborting while execute runs rejects at once, even when the tool ignores its signal', async () => {
    let release!: () => void
    const tool = createTool({ id: 'stubborn', description: 'x', execute: () => new Promise<string>((resolve) => (release = () => resolve('late'))) })
    const controller = new AbortController()
    const call = tool.execute({}, { abortSignal: controller.signal })
    await Promise.resolve()
    controller.abort('stop')
    await expect(call).rejects.toBe('stop')
    release()
  })

  it('the tool sees the caller signal and can stop its own work', async () => {
    let seen: AbortSignal | undefined
    const tool = createTool({
      id: 'polite',
      description: 'x',
      execute: (_input, { abortSignal }) => {
        seen = abortSignal
        return new Promise<string>((_resolve, reject) => abortSignal.addEventListener('abort', () => reject(abortSignal.reason)))
      },
    })
    const controller = new AbortController()
    const call = tool.execute({}, { abortSignal: controller.signal })
    await Promise.resolve()
    controller.abort()
    await expect(call).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen).toBe(controller.signal)
    expect(seen!.aborted).toBe(true)
  })

  it('a signal that never aborts changes nothing', async () => {
    const tool = createTool({ id: 'calm', description: 'x', execute: async () => 'ok' })
    expect(await tool.execute({}, { abortSignal: new AbortController().signal })).toBe('ok')
  })
})

describe('tool.execute() — suspend and resume', () => {
  const booking = () => {
    const executions: any[] = []
    const tool = createTool({
      id: 'book-flight',
      description: 'x',
      inputSchema: z.object({ to: z.string() }),
      outputSchema: z.object({ booked: z.string() }),
      suspendSchema: z.object({ question: z.string(), options: z.array(z.string()) }),
      resumeSchema: z.object({ choice: z.string().toUpperCase() }),
      execute: async ({ to }, context) => {
        executions.push({
          resumeData: context.resumeData,
          suspendPayload: context.suspendPayload,
          agentResumeData: context.agent?.resumeData,
          agentSuspendPayload: context.agent?.suspendPayload,
        })
        if (!context.resumeData) {
          await (context.agent?.suspend ?? context.suspend)({ question: `Which flight to ${to}?`, options: ['tp123', 'fr456'] })
          return
        }
        return { booked: context.resumeData.choice }
      },
    })
    return { tool, executions }
  }

  it('agent.suspend gets the validated payload; the call returns nothing', async () => {
    const { tool } = booking()
    const suspend = vi.fn()
    expect(await tool.execute({ to: 'Lisbon' }, { agent: { suspend } })).toBeUndefined()
    expect(suspend).toHaveBeenCalledTimes(1)
    expect(suspend).toHaveBeenCalledWith({ question: 'Which flight to Lisbon?', options: ['tp123', 'fr456'] }, undefined)
  })

  it('context.suspend given at the top level works the same', async () => {
    const { tool } = booking()
    const suspend = vi.fn()
    expect(await tool.execute({ to: 'Porto' }, { suspend })).toBeUndefined()
    expect(suspend).toHaveBeenCalledWith({ question: 'Which flight to Porto?', options: ['tp123', 'fr456'] }, undefined)
  })

  it('resumeData and suspendPayload reach the next call, on agent and on the context (resumeData validated and parsed)', async () => {
    const { tool, executions } = booking()
    let payload: unknown
    await tool.execute({ to: 'Lisbon' }, { agent: { suspend: async (p) => void (payload = p) } })
    const result = await tool.execute({ to: 'Lisbon' }, { agent: { resumeData: { choice: 'tp123' }, suspendPayload: payload as never } })
    expect(result).toEqual({ booked: 'TP123' })
    expect(executions[1]).toEqual({
      resumeData: { choice: 'TP123' },
      suspendPayload: payload,
      agentResumeData: { choice: 'TP123' },
      agentSuspendPayload: payload,
    })
  })

  it('accepts resumeData at the top level of the context too', async () => {
    const { tool } = booking()
    expect(await tool.execute({ to: 'Lisbon' }, { resumeData: { choice: 'fr456' } })).toEqual({ booked: 'FR456' })
  })

  it('bad resumeData returns a validation error and execute never runs', async () => {
    const { tool, executions } = booking()
    const result = await tool.execute({ to: 'Lisbon' }, { agent: { resumeData: { choice: 1 } as never } })
    expect(result).toMatchObject({
      error: true,
      message: expect.stringMatching(/^Tool resume data validation failed for book-flight/),
      validationErrors: { fields: { choice: { errors: [expect.any(String)] } } },
    })
    expect(executions).toEqual([])
  })

  it('an invalid suspend payload returns a validation error, and the caller suspend is not called', async () => {
    const suspend = vi.fn()
    const tool = createTool({
      id: 'bad-suspend',
      description: 'x',
      suspendSchema: z.object({ question: z.string() }),
      execute: async (_input, { suspend: pause }) => {
        await pause({ question: 42 } as never)
        return 'went on'
      },
    })
    expect(await tool.execute({}, { agent: { suspend } })).toEqual({
      error: true,
      message: expect.stringMatching(/^Tool suspension data validation failed for bad-suspend\. Please fix the following errors and try again:\n- question: /),
      validationErrors: { errors: [], fields: { question: { errors: [expect.any(String)], fields: {} } } },
    })
    expect(suspend).not.toHaveBeenCalled()
  })

  it('without a suspendSchema the payload passes as it is, and output validation is skipped', async () => {
    const suspend = vi.fn()
    const tool = createTool({
      id: 'free-suspend',
      description: 'x',
      outputSchema: z.object({ done: z.boolean() }),
      execute: async (_input, context) => {
        await context.suspend({ anything: [1, 2] })
        return undefined
      },
    })
    expect(await tool.execute({}, { agent: { suspend } })).toBeUndefined()
    expect(suspend).toHaveBeenCalledWith({ anything: [1, 2] }, undefined)
  })

  it('suspend works when the caller passes no suspend callback', async () => {
    const { tool } = booking()
    expect(await tool.execute({ to: 'Faro' })).toBeUndefined()
  })
})
