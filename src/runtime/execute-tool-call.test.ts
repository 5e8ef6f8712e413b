// The executor's lifecycle as SPEC §3 events: every ending (completed, suspended, failed, aborted), with
// `toModelOutput` and `needsApproval`. One file over ~300 lines on purpose: one lifecycle, read top to bottom.
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from './create-tool.ts'
import { collectingScope } from '../../test/shared/collecting-scope.ts'
import { CallAbort } from './call-abort.ts'
import { executeToolCall, needsApproval } from './execute-tool-call.ts'
import { receiveInput } from './receive-input.ts'
import { RequestContext } from '../tool/request-context.ts'

const weatherTool = createTool({
  id: 'weather-tool',
  description: 'Weather',
  inputSchema: z.object({ location: z.string() }),
  outputSchema: z.object({ location: z.string(), temperatureCelsius: z.number() }),
  execute: async ({ location }, { observe }) => {
    observe.log('info', 'looking up', { location })
    return observe.span('forecast', async () => ({ location, temperatureCelsius: 21 }), { provider: 'fixed' })
  },
})

describe('executeToolCall — the lifecycle as SPEC §3 events', () => {
  it('a whole call: input events, the execute events, then output and model output', async () => {
    const { scope, events, types } = collectingScope(weatherTool)
    const received = await receiveInput(scope, { input: { location: 'Lisbon' } })
    if (!received.ok) throw received.error
    const outcome = await executeToolCall(scope, received.value.value)
    expect(outcome).toEqual({
      status: 'completed',
      output: { location: 'Lisbon', temperatureCelsius: 21 },
      modelOutput: { type: 'json', value: { location: 'Lisbon', temperatureCelsius: 21 } },
    })
    expect(types()).toEqual([
      'tool-input-start',
      'tool-input-available',
      'data-tool-log',
      'data-tool-span',
      'data-tool-span',
      'tool-output-available',
      'data-tool-model-output',
    ])
    expect(events.slice(2, 5)).toEqual([
      { type: 'data-tool-log', data: { level: 'info', message: 'looking up', data: { location: 'Lisbon' }, time: expect.any(String) } },
      { type: 'data-tool-span', data: { spanId: expect.any(String), name: 'forecast', phase: 'start', attributes: { provider: 'fixed' } } },
      { type: 'data-tool-span', data: { spanId: expect.any(String), name: 'forecast', phase: 'end', status: 'ok', durationMs: expect.any(Number) } },
    ])
    expect(events.slice(5)).toEqual([
      { type: 'tool-output-available', toolCallId: 'call_1', output: { location: 'Lisbon', temperatureCelsius: 21 } },
      { type: 'data-tool-model-output', data: { toolCallId: 'call_1', modelOutput: { type: 'json', value: { location: 'Lisbon', temperatureCelsius: 21 } } } },
    ])
  })

  it('execute throws: tool-output-error with its message (no stack) and EXECUTION_FAILED', async () => {
    const tool = createTool({
      id: 'broken',
      description: 'x',
      execute: async () => {
        throw new Error('upstream down')
      },
    })
    const { scope, events } = collectingScope(tool)
    const outcome = await executeToolCall(scope, {})
    expect(outcome.status).toBe('failed')
    if (outcome.status !== 'failed') return
    expect(outcome.error.code).toBe('EXECUTION_FAILED')
    expect(outcome.error.message).toBe('upstream down')
    expect(events).toEqual([{ type: 'tool-output-error', toolCallId: 'call_1', errorText: 'upstream down' }])
  })

  it('execute throws synchronously or throws a non-Error: still an outcome, never a rejection', async () => {
    const tool = createTool({
      id: 'sync-broken',
      description: 'x',
      execute: (() => {
        throw { reason: 'odd' }
      }) as never,
    })
    const { scope, events } = collectingScope(tool)
    await expect(executeToolCall(scope, {})).resolves.toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'Tool threw a non-Error value' } })
    expect(events).toEqual([{ type: 'tool-output-error', toolCallId: 'call_1', errorText: 'Tool threw a non-Error value' }])
  })

  it('a tool without execute fails as EXECUTION_FAILED', async () => {
    const { scope } = collectingScope(createTool({ id: 'empty', description: 'x' }))
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'Tool empty has no execute function' } })
  })

  it('bad output: OUTPUT_VALIDATION_FAILED, tool-output-error, no output event, no onOutput', async () => {
    const onOutput = vi.fn()
    const tool = createTool({ id: 'bad-out', description: 'x', outputSchema: z.object({ n: z.number() }), onOutput, execute: async () => ({ n: 'x' }) as never })
    const { scope, events } = collectingScope(tool)
    const outcome = await executeToolCall(scope, {})
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'OUTPUT_VALIDATION_FAILED', issues: [{ path: ['n'], message: expect.any(String) }] } })
    expect(events).toEqual([{ type: 'tool-output-error', toolCallId: 'call_1', errorText: expect.stringMatching(/^Tool output validation failed for bad-out/) }])
    expect(onOutput).not.toHaveBeenCalled()
  })

  it("outputValidation: 'warn' logs a data-tool-log warning and completes with the output as returned", async () => {
    const tool = createTool({ id: 'lenient', description: 'x', outputSchema: z.object({ n: z.number() }), outputValidation: 'warn', execute: async () => ({ n: 'x' }) as never })
    const { scope, events, types } = collectingScope(tool)
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'completed', output: { n: 'x' } })
    expect(types()).toEqual(['data-tool-log', 'tool-output-available', 'data-tool-model-output'])
    expect(events[0]).toMatchObject({ data: { level: 'warn', message: expect.stringMatching(/^Tool output validation failed for lenient/), data: { issues: [{ path: ['n'] }] } } })
  })

  it('onOutput runs after the output events, with the output', async () => {
    const order: string[] = []
    const tool = createTool({
      id: 'hooked',
      description: 'x',
      execute: async () => ({ a: 1 }),
      onOutput: ({ output, toolName, toolCallId, abortSignal }) => {
        order.push(`onOutput:${JSON.stringify(output)}:${toolName}:${toolCallId}:${abortSignal instanceof AbortSignal}`)
      },
    })
    const { scope } = collectingScope(tool, { emit: (event) => void order.push(event.type) })
    await executeToolCall(scope, {})
    expect(order).toEqual(['tool-output-available', 'data-tool-model-output', 'onOutput:{"a":1}:hooked:call_1:true'])
  })

  it('a throwing onOutput is a data-tool-log warning; the call still completes', async () => {
    const tool = createTool({
      id: 'hooked',
      description: 'x',
      execute: async () => 'ok',
      onOutput: () => {
        throw new Error('audit down')
      },
    })
    const { scope, events } = collectingScope(tool)
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'completed', output: 'ok' })
    expect(events.at(-1)).toMatchObject({ type: 'data-tool-log', data: { level: 'warn', message: 'onOutput hook failed: audit down', data: { hook: 'onOutput' } } })
  })
})

describe('executeToolCall — toModelOutput', () => {
  const withModelOutput = (toModelOutput: (output: any) => unknown) =>
    createTool({ id: 'chart', description: 'x', toModelOutput: toModelOutput as never, execute: async () => ({ city: 'Porto', png: 'iVBORw0KGgo=' }) })

  it.each([
    ['text', () => ({ type: 'text', value: 'A chart of Porto' }), { type: 'text', value: 'A chart of Porto' }],
    ['a string (text shorthand)', (output: { city: string }) => `Chart of ${output.city}`, { type: 'text', value: 'Chart of Porto' }],
    ['json', (output: { city: string }) => ({ type: 'json', value: { city: output.city } }), { type: 'json', value: { city: 'Porto' } }],
    [
      'content with an image',
      (output: { png: string }) => ({ type: 'content', value: [{ type: 'text', text: 'Chart' }, { type: 'image-data', data: output.png, mediaType: 'image/png' }] }),
      { type: 'content', value: [{ type: 'text', text: 'Chart' }, { type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
    ],
  ])('%s becomes the model output and data-tool-model-output', async (_case, toModelOutput, expected) => {
    const { scope, events } = collectingScope(withModelOutput(toModelOutput))
    const outcome = await executeToolCall(scope, {})
    expect(outcome).toEqual({ status: 'completed', output: { city: 'Porto', png: 'iVBORw0KGgo=' }, modelOutput: expected })
    expect(events.at(-1)).toEqual({ type: 'data-tool-model-output', data: { toolCallId: 'call_1', modelOutput: expected } })
  })

  it.each([
    ['returns a bad shape', () => ({ kind: 'text' }), 'toModelOutput failed: toModelOutput must return { type: "text" | "json" | "content", value }'],
    [
      'throws',
      () => {
        throw new Error('no renderer')
      },
      'toModelOutput failed: no renderer',
    ],
  ])('a toModelOutput that %s fails the call before any output event', async (_case, toModelOutput, message) => {
    const { scope, events } = collectingScope(withModelOutput(toModelOutput))
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message } })
    expect(events).toEqual([{ type: 'tool-output-error', toolCallId: 'call_1', errorText: message }])
  })
})

describe('executeToolCall — suspend and resume', () => {
  const tool = createTool({
    id: 'book',
    description: 'x',
    outputSchema: z.object({ booked: z.string() }),
    suspendSchema: z.object({ question: z.string() }),
    resumeSchema: z.object({ choice: z.string() }),
    execute: async (_input, context) => {
      if (context.resumeData) return { booked: `${context.resumeData.choice} (asked: ${context.suspendPayload?.question})` }
      await context.suspend({ question: 'Which flight?' })
      return undefined
    },
  })

  it('suspend(): data-tool-suspended with the payload and the resume schema, outcome suspended', async () => {
    const { scope, events } = collectingScope(tool)
    expect(await executeToolCall(scope, {})).toEqual({ status: 'suspended', suspendPayload: { question: 'Which flight?' } })
    expect(events).toEqual([
      {
        type: 'data-tool-suspended',
        data: { runId: 'run_1', toolCallId: 'call_1', suspendPayload: { question: 'Which flight?' }, resumeSchema: tool.schemas.resume!.jsonSchema },
      },
    ])
  })

  it('a suspension without a resumeSchema has no resumeSchema field', async () => {
    const free = createTool({ id: 'free', description: 'x', execute: async (_input, { suspend }) => void (await suspend('hold')) })
    const { scope, events } = collectingScope(free)
    await executeToolCall(scope, {})
    expect(events).toEqual([{ type: 'data-tool-suspended', data: { runId: 'run_1', toolCallId: 'call_1', suspendPayload: 'hold' } }])
  })

  it('resuming: execute sees resumeData and suspendPayload (on the context and on agent)', async () => {
    let agent: any
    const spy = createTool({
      ...tool.options,
      id: 'book-spy',
      execute: async (input: unknown, context: any) => {
        agent = context.agent
        return tool.options.execute!(input as never, context)
      },
    })
    const { scope } = collectingScope(spy)
    const outcome = await executeToolCall(scope, {}, { resumeData: { choice: 'TP123' }, suspendPayload: { question: 'Which flight?' } })
    expect(outcome).toMatchObject({ status: 'completed', output: { booked: 'TP123 (asked: Which flight?)' } })
    expect(agent).toMatchObject({ toolCallId: 'call_1', resumeData: { choice: 'TP123' }, suspendPayload: { question: 'Which flight?' } })
  })

  it('an invalid suspend payload: SUSPEND_VALIDATION_FAILED and tool-output-error, the caller callback not called', async () => {
    const onSuspend = vi.fn()
    const bad = createTool({ id: 'bad', description: 'x', suspendSchema: z.object({ question: z.string() }), execute: async (_input, { suspend }) => void (await suspend({ question: 1 } as never)) })
    const { scope, events } = collectingScope(bad, { onSuspend })
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'failed', error: { code: 'SUSPEND_VALIDATION_FAILED', issues: [{ path: ['question'] }] } })
    expect(events).toEqual([{ type: 'tool-output-error', toolCallId: 'call_1', errorText: expect.stringMatching(/^Tool suspension data validation failed for bad/) }])
    expect(onSuspend).not.toHaveBeenCalled()
  })

  it("the scope's onSuspend gets the validated payload", async () => {
    const onSuspend = vi.fn()
    const { scope } = collectingScope(tool, { onSuspend })
    await executeToolCall(scope, {})
    expect(onSuspend).toHaveBeenCalledWith({ question: 'Which flight?' }, undefined)
  })
})

describe('executeToolCall — abort', () => {
  it('an aborted signal fails the call without running execute', async () => {
    const execute = vi.fn(async () => 'ran')
    const controller = new AbortController()
    controller.abort(new Error('The caller disconnected'))
    const { scope, events } = collectingScope(createTool({ id: 'a', description: 'x', execute }), { signal: controller.signal })
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'The caller disconnected' } })
    expect(events).toEqual([{ type: 'tool-output-error', toolCallId: 'call_1', errorText: 'The caller disconnected' }])
    expect(execute).not.toHaveBeenCalled()
  })

  it('aborting during execute settles the call at once, even if the tool ignores the signal', async () => {
    const controller = new AbortController()
    const tool = createTool({ id: 'stubborn', description: 'x', execute: () => new Promise<never>(() => {}) })
    const { scope } = collectingScope(tool, { signal: controller.signal })
    const outcome = executeToolCall(scope, {})
    await Promise.resolve()
    controller.abort('timed out')
    expect(await outcome).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'timed out' } })
  })

  it('a signal with no reason message still gives a message', async () => {
    const controller = new AbortController()
    const tool = createTool({ id: 'stubborn', description: 'x', execute: () => new Promise<never>(() => {}) })
    const { scope } = collectingScope(tool, { signal: controller.signal })
    const outcome = executeToolCall(scope, {})
    await Promise.resolve()
    controller.abort({ code: 42 })
    expect(await outcome).toMatchObject({ status: 'failed', error: { message: 'The call was aborted' } })
  })

  it('execute receives the scope signal as abortSignal', async () => {
    const controller = new AbortController()
    let seen: AbortSignal | undefined
    const tool = createTool({ id: 's', description: 'x', execute: async (_input, { abortSignal }) => void (seen = abortSignal) })
    const { scope } = collectingScope(tool, { signal: controller.signal })
    await executeToolCall(scope, {})
    expect(seen).toBe(controller.signal)
  })
})

describe('a scope whose signal is made on first read (CallAbort, as over HTTP)', () => {
  function lazyScope(tool: Parameters<typeof collectingScope>[0]) {
    const upstream = new AbortController()
    let followed = 0
    const abort = new CallAbort({ get signal() { return followed++, upstream.signal } }, () => new Error('The caller disconnected'))
    const { scope, types } = collectingScope(tool, { raceAbort: (work) => abort.race(work) })
    Object.defineProperty(scope, 'signal', { get: () => abort.signal })
    return { scope, types, upstream, abort, followed: () => followed }
  }

  it('a call whose tool and hooks never read the signal makes none', async () => {
    const tool = createTool({
      id: 'quiet',
      description: 'x',
      onInputStart: () => {},
      onInputAvailable: () => {},
      onOutput: () => {},
      execute: async () => 'done',
    })
    const { scope, followed } = lazyScope(tool)
    const received = await receiveInput(scope, { input: {} })
    expect(received.ok).toBe(true)
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'completed', output: 'done' })
    expect(followed()).toBe(0)
  })

  it('hooks and execute that read it get one signal, which the caller leaving aborts', async () => {
    const seen: AbortSignal[] = []
    const tool = createTool({
      id: 'watchful',
      description: 'x',
      onInputStart: ({ abortSignal }) => void seen.push(abortSignal!),
      execute: async (_input, { abortSignal }) => {
        seen.push(abortSignal)
        return new Promise((_resolve, reject) => abortSignal.addEventListener('abort', () => reject(abortSignal.reason)))
      },
    })
    const { scope, upstream, followed } = lazyScope(tool)
    await receiveInput(scope, { input: {} })
    const outcome = executeToolCall(scope, {})
    await Promise.resolve()
    upstream.abort()
    expect(await outcome).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'The caller disconnected' } })
    expect(seen).toHaveLength(2)
    expect(seen[0]).toBe(seen[1])
    expect(seen[0]!.aborted).toBe(true)
    expect(followed()).toBe(1)
  })

  it('a tool that ignores its signal still releases the call when it aborts', async () => {
    const tool = createTool({ id: 'stubborn', description: 'x', execute: () => new Promise<never>(() => {}) })
    const { scope, abort, types, followed } = lazyScope(tool)
    const outcome = executeToolCall(scope, {})
    await Promise.resolve()
    abort.abort(new Error('The caller disconnected'))
    expect(await outcome).toMatchObject({ status: 'failed', error: { message: 'The caller disconnected' } })
    expect(types()).toEqual(['tool-output-error'])
    expect(followed()).toBe(0)
  })
})

describe('needsApproval', () => {
  const input = { amount: 500 }
  const toolWith = (requireApproval: unknown) =>
    createTool({ id: 'pay', description: 'x', inputSchema: z.object({ amount: z.number() }), requireApproval: requireApproval as never, execute: async () => 'paid' })

  it('a boolean says it', async () => {
    expect(await needsApproval(collectingScope(toolWith(true)).scope, input)).toBe(true)
    expect(await needsApproval(collectingScope(toolWith(false)).scope, input)).toBe(false)
    expect(await needsApproval(collectingScope(toolWith(undefined)).scope, input)).toBe(false)
  })

  it('a function gets the input and the request context values, and may be async', async () => {
    const rule = vi.fn(async (value: { amount: number }, { requestContext }: { requestContext: Record<string, unknown> }) => value.amount > 100 && requestContext.role !== 'admin')
    const tool = toolWith(rule)
    expect(await needsApproval(collectingScope(tool, { requestContext: new RequestContext({ role: 'user' }) }).scope, input)).toBe(true)
    expect(await needsApproval(collectingScope(tool, { requestContext: new RequestContext({ role: 'admin' }) }).scope, input)).toBe(false)
    expect(rule).toHaveBeenCalledWith(input, { requestContext: { role: 'user' } })
  })

  it('a truthy non-boolean counts as true', async () => {
    expect(await needsApproval(collectingScope(toolWith(() => 'yes')).scope, input)).toBe(true)
  })
})
