import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from './create-tool.ts'

// `tool.execute()` (Mastra's direct call), part 3: abortSignal, suspend and resume. Part 1 (input,
// request context, output) is execute-direct.test.ts, part 2 (hooks, the context) execute-direct-context.test.ts.

afterEach(() => {
  vi.restoreAllMocks()
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
