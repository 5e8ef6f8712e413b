import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from './create-tool.ts'
import { RequestContext } from '../tool/request-context.ts'
import { recordingObserve, silenceConsole } from '../../test/shared/direct-call-helpers.ts'

// `tool.execute()` (Mastra's direct call), part 2: hooks and the execution context; part 3
// (abortSignal, suspend and resume) is execute-direct-suspend.test.ts. Part 1 (input, request context, output) is execute-direct.test.ts.

afterEach(() => {
  vi.restoreAllMocks()
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
