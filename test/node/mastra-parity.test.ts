// One file, two implementations: every case in the `describe.each` runs against toolroute and
// against @mastra/core 1.71 itself, so each expectation is Mastra's real behaviour, not our
// reading of it. Mastra is loaded from the root's node_modules when installed there, else from
// bench/node_modules (`npm ci --prefix bench`). Where toolroute differs on purpose, the case
// sits in the last block, which pins both behaviours (the README lists each difference).
// One file over ~300 lines on purpose: a second file would need a second copy of the `describe.each` harness.
import { readFileSync } from 'node:fs'
import * as v from 'valibot'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { RequestContext as ToolrouteRequestContext, Tool as ToolrouteTool, createTool as toolrouteCreateTool } from '../../src/index.ts'

interface Implementation {
  createTool: (options: any) => any
  Tool: new (options: any) => any
  RequestContext: new (init?: any) => any
}

async function importFirst(specifiers: string[]): Promise<{ module: any; specifier: string }> {
  for (const specifier of specifiers) {
    try {
      return { module: await import(/* @vite-ignore */ specifier), specifier }
    } catch {
      // try the next place
    }
  }
  throw new Error('@mastra/core 1.71.0 is not installed: run `npm ci --prefix bench` (or `npm i --no-save @mastra/core@1.71.0`)')
}

const bench = (path: string) => new URL(`../../bench/node_modules/@mastra/core/dist/${path}/index.js`, import.meta.url).href
const tools = await importFirst(['@mastra/core/tools', bench('tools')])
const requestContext = await importFirst([tools.specifier.startsWith('@') ? '@mastra/core/request-context' : bench('request-context')])
const mastraPackage = new URL(tools.specifier.startsWith('@') ? '../../node_modules/@mastra/core/package.json' : '../../bench/node_modules/@mastra/core/package.json', import.meta.url)

const toolroute: Implementation = { createTool: toolrouteCreateTool, Tool: ToolrouteTool, RequestContext: ToolrouteRequestContext }
const mastra: Implementation = { createTool: tools.module.createTool, Tool: tools.module.Tool, RequestContext: requestContext.module.RequestContext }

it('runs against @mastra/core 1.71.0 exactly', () => {
  expect(JSON.parse(readFileSync(mastraPackage, 'utf8')).version).toBe('1.71.0')
})

describe.each([
  ['toolroute', toolroute],
  ['mastra', mastra],
] as const)('%s', (_name, { createTool, Tool, RequestContext }) => {
  /** A tool whose execute hands back what it was given. */
  const echo = (options: Record<string, unknown> = {}) => {
    const seen: { input?: any; context?: any } = {}
    const tool = createTool({
      id: 'echo',
      description: 'Echoes its input',
      execute: async (input: unknown, context: unknown) => {
        seen.input = input
        seen.context = context
        return input
      },
      ...options,
    })
    return { tool, seen }
  }

  describe('1. ids', () => {
    it.each(['Lookup order', 'orders.lookup', 'tools/lookup', 'météo', 'a'.repeat(128)])('accepts %j and keeps it as it is', async (id) => {
      const tool = createTool({ id, description: 'x', inputSchema: z.object({ n: z.number() }), execute: async ({ n }: { n: number }) => ({ n }) })
      expect(tool.id).toBe(id)
      expect(await tool.execute({ n: 1 })).toEqual({ n: 1 })
    })
  })

  describe('2. the tool object', () => {
    it('createTool returns a Tool; new Tool(options) makes the same kind of tool', async () => {
      const made = createTool({ id: 'made', description: 'x', execute: async () => 'created' })
      expect(made).toBeInstanceOf(Tool)
      const constructed = new Tool({ id: 'constructed', description: 'x', inputSchema: z.object({ q: z.string() }), execute: async ({ q }: { q: string }) => q })
      expect(constructed).toBeInstanceOf(Tool)
      expect(await constructed.execute({ q: 'hi' })).toBe('hi')
      expect(await constructed.execute({ q: 1 })).toMatchObject({ error: true })
    })

    it('every option is readable on the tool with the value passed', () => {
      const inputSchema = z.object({ q: z.string() })
      const requestContextSchema = z.object({ userId: z.string() })
      const options = {
        id: 'readable',
        title: 'Readable tool',
        description: 'Every option on show',
        inputSchema,
        requestContextSchema,
        strict: true,
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
        inputExamples: [{ input: { q: 'cats' } }],
        toModelOutput: (output: unknown) => ({ type: 'text', value: String(output) }),
        transform: { display: { output: () => 'hidden' } },
        mcp: { annotations: { readOnlyHint: true }, _meta: { team: 'search' } },
        background: { enabled: false, timeoutMs: 1000 },
        onInputStart: () => {},
        onInputDelta: () => {},
        onInputAvailable: () => {},
        onOutput: () => {},
        execute: async () => 'ok',
      }
      const tool = createTool(options)
      for (const key of Object.keys(options) as (keyof typeof options)[]) {
        if (key === 'execute') continue
        expect(tool[key], key).toBe(options[key])
      }
      expect(tool.inputSchema).toBe(inputSchema)
    })

    it('requireApproval defaults to false and keeps a function as given', () => {
      expect(createTool({ id: 'a', description: 'x' }).requireApproval).toBe(false)
      expect(createTool({ id: 'b', description: 'x', requireApproval: true }).requireApproval).toBe(true)
      const decide = async () => true
      expect(createTool({ id: 'c', description: 'x', requireApproval: decide }).requireApproval).toBe(decide)
    })

    it('is an ordinary object: vi.spyOn(tool, "execute") sees each call and lets it through', async () => {
      const { tool } = echo({ inputSchema: z.object({ q: z.string() }) })
      expect(Object.isFrozen(tool)).toBe(false)
      const spy = vi.spyOn(tool, 'execute')
      expect(await tool.execute({ q: 'cats' })).toEqual({ q: 'cats' })
      expect(spy).toHaveBeenCalledWith({ q: 'cats' })
      spy.mockResolvedValueOnce({ q: 'mocked' })
      expect(await tool.execute({ q: 'dogs' })).toEqual({ q: 'mocked' })
      spy.mockRestore()
      expect(await tool.execute({ q: 'birds' })).toEqual({ q: 'birds' })
    })

    it('execute can be wrapped by assignment', async () => {
      const { tool } = echo()
      const original = tool.execute
      const calls: unknown[] = []
      tool.execute = async (input: unknown, context?: unknown) => {
        calls.push(input)
        return original(input, context)
      }
      expect(await tool.execute({ n: 1 })).toEqual({ n: 1 })
      expect(calls).toEqual([{ n: 1 }])
    })

    it('a tool without execute has execute === undefined', () => {
      const tool = createTool({ id: 'no-execute', description: 'x', inputSchema: z.object({}) })
      expect(tool.execute).toBeUndefined()
      expect('execute' in tool).toBe(true)
    })

    it('an error thrown by execute is thrown to the caller', async () => {
      const tool = createTool({ id: 'throws', description: 'x', execute: async () => { throw new Error('the database is on fire') } })
      await expect(tool.execute({})).rejects.toThrow('the database is on fire')
    })

    it('execute gets the parsed input, and the call returns the parsed output', async () => {
      const tool = createTool({
        id: 'parsed',
        description: 'x',
        inputSchema: z.object({ q: z.string().trim().toLowerCase(), limit: z.number().default(10) }),
        outputSchema: z.object({ q: z.string(), limit: z.number(), source: z.string().default('index') }),
        execute: async (input: { q: string; limit: number }) => input,
      })
      expect(await tool.execute({ q: '  CATS ' })).toEqual({ q: 'cats', limit: 10, source: 'index' })
    })

    it('toModelOutput does not run on a direct call', async () => {
      const toModelOutput = vi.fn(() => 'text')
      const tool = createTool({ id: 'model', description: 'x', toModelOutput, execute: async () => ({ a: 1 }) })
      expect(await tool.execute({})).toEqual({ a: 1 })
      expect(toModelOutput).not.toHaveBeenCalled()
    })
  })

  describe('3. the execution context', () => {
    it('with no context at all, there is no agent, and requestContext is an empty RequestContext', async () => {
      const { tool, seen } = echo()
      await tool.execute({})
      expect(seen.context.agent).toBeUndefined()
      expect(seen.context.requestContext).toBeInstanceOf(RequestContext)
      expect(seen.context.requestContext.size()).toBe(0)
    })

    it('with no agent fields, context.agent is undefined', async () => {
      const { tool, seen } = echo()
      await tool.execute({}, { requestContext: new RequestContext() })
      expect(seen.context.agent).toBeUndefined()
    })

    it("a flat { toolCallId, messages } moves under agent, with agentId ''", async () => {
      const { tool, seen } = echo()
      const messages = [{ role: 'user', content: 'hi' }]
      await tool.execute({}, { toolCallId: 'call_1', messages })
      expect(seen.context.agent).toMatchObject({ agentId: '', toolCallId: 'call_1', messages })
    })

    it('the flat agent fields agentId, threadId and resourceId move with them', async () => {
      const { tool, seen } = echo()
      await tool.execute({}, { toolCallId: 'call_1', messages: [], agentId: 'support', threadId: 't_1', resourceId: 'r_1' })
      expect(seen.context.agent).toMatchObject({ agentId: 'support', toolCallId: 'call_1', messages: [], threadId: 't_1', resourceId: 'r_1' })
    })

    it('a flat toolCallId without messages is not an agent call', async () => {
      const { tool, seen } = echo()
      await tool.execute({}, { toolCallId: 'call_1' })
      expect(seen.context.agent).toBeUndefined()
    })

    it("an agent passed as agent keeps its fields, with agentId '' when it has none", async () => {
      const { tool, seen } = echo()
      await tool.execute({}, { agent: { toolCallId: 'call_2', messages: [], threadId: 't_2', custom: 'kept' } })
      expect(seen.context.agent).toMatchObject({ agentId: '', toolCallId: 'call_2', messages: [], threadId: 't_2', custom: 'kept' })
      await tool.execute({}, { agent: { agentId: 'planner', toolCallId: 'call_3', messages: [] } })
      expect(seen.context.agent.agentId).toBe('planner')
    })

    it('flat workflow fields move under workflow', async () => {
      const { tool, seen } = echo()
      const setState = () => {}
      await tool.execute({}, { workflowId: 'wf', runId: 'wf_run', state: { n: 1 }, setState })
      expect(seen.context.workflow).toMatchObject({ workflowId: 'wf', runId: 'wf_run', state: { n: 1 }, setState })
      expect(seen.context.agent).toBeUndefined()
    })

    it("agent.suspend gets the payload, validated against suspendSchema; the call returns undefined", async () => {
      const suspend = vi.fn(async () => {})
      const tool = createTool({
        id: 'suspends',
        description: 'x',
        suspendSchema: z.object({ question: z.string() }),
        outputSchema: z.object({ done: z.boolean() }),
        execute: async (_input: unknown, context: any) => {
          await context.agent.suspend({ question: 'Which flight?' })
        },
      })
      expect(await tool.execute({}, { agent: { toolCallId: 'call_1', messages: [], suspend } })).toBeUndefined()
      expect(suspend).toHaveBeenCalledWith({ question: 'Which flight?' }, undefined)
    })

    it("suspend's options reach the caller's suspend", async () => {
      const suspend = vi.fn(async () => {})
      const tool = createTool({ id: 'labelled', description: 'x', execute: async (_input: unknown, context: any) => context.agent.suspend({ step: 1 }, { resumeLabel: 'approve' }) })
      await tool.execute({}, { agent: { toolCallId: 'call_1', messages: [], suspend } })
      expect(suspend).toHaveBeenCalledWith({ step: 1 }, { resumeLabel: 'approve' })
    })

    it('resumeData that breaks resumeSchema is a validation error, and execute never runs', async () => {
      const execute = vi.fn(async () => 'ran')
      const tool = createTool({ id: 'resumes', description: 'x', resumeSchema: z.object({ choice: z.string() }), execute })
      expect(await tool.execute({}, { agent: { toolCallId: 'call_1', messages: [], resumeData: { choice: 7 } } })).toMatchObject({
        error: true,
        validationErrors: { fields: { choice: { errors: [expect.any(String)] } } },
      })
      expect(execute).not.toHaveBeenCalled()
    })
  })

  describe('4. RequestContext', () => {
    it('is built from [key, value] pairs or from a plain object', () => {
      expect(new RequestContext([['a', 1], ['b', 2]]).all).toEqual({ a: 1, b: 2 })
      expect(new RequestContext({ a: 1, b: 2 }).all).toEqual({ a: 1, b: 2 })
      expect(new RequestContext().size()).toBe(0)
    })

    it('get, set, has, delete, clear and size() (a method)', () => {
      const context = new RequestContext({ userId: 'u_1' })
      expect(context.get('userId')).toBe('u_1')
      context.set('locale', 'pt-PT')
      expect(context.has('locale')).toBe(true)
      expect(context.size()).toBe(2)
      expect(context.delete('locale')).toBe(true)
      expect(context.delete('locale')).toBe(false)
      expect(context.has('locale')).toBe(false)
      context.clear()
      expect(context.size()).toBe(0)
      expect(context.get('userId')).toBeUndefined()
    })

    it('keys, values, entries and forEach, in insertion order', () => {
      const context = new RequestContext({ a: 1, b: 'two' })
      expect([...context.keys()]).toEqual(['a', 'b'])
      expect([...context.values()]).toEqual([1, 'two'])
      expect([...context.entries()]).toEqual([['a', 1], ['b', 'two']])
      const seen: unknown[] = []
      context.forEach((value: unknown, key: string) => seen.push([key, value]))
      expect(seen).toEqual([['a', 1], ['b', 'two']])
    })

    it('all is a fresh plain-object copy', () => {
      const context = new RequestContext({ a: 1 })
      const all = context.all
      expect(all).toEqual({ a: 1 })
      expect(Object.getPrototypeOf(all)).toBe(Object.prototype)
      all.a = 2
      expect(context.get('a')).toBe(1)
      expect(context.all).not.toBe(all)
    })

    it('toJSON() is a plain object without function values, and JSON.stringify writes it', () => {
      const context = new RequestContext({ userId: 'u_1', flags: ['beta'], callback: () => 'x' })
      expect(context.toJSON()).toEqual({ userId: 'u_1', flags: ['beta'] })
      expect(JSON.stringify(context)).toBe('{"userId":"u_1","flags":["beta"]}')
    })

    it('getRaw, setRaw, hasRaw and deleteRaw reach any key', () => {
      const context = new RequestContext()
      context.setRaw('mastra__resourceId', 'r_1')
      expect(context.getRaw('mastra__resourceId')).toBe('r_1')
      expect(context.hasRaw('mastra__resourceId')).toBe(true)
      expect(context.get('mastra__resourceId')).toBe('r_1')
      expect(context.deleteRaw('mastra__resourceId')).toBe(true)
      expect(context.hasRaw('mastra__resourceId')).toBe(false)
    })

    describe('with a requestContextSchema', () => {
      const since = z.codec(z.iso.datetime(), z.date(), {
        decode: (text: string) => new Date(text),
        encode: (date: Date) => date.toISOString(),
      })
      const schema = z.object({
        userId: z.string().trim(),
        plan: z.enum(['free', 'pro']).default('free'),
        seats: z.coerce.number(),
        since,
      })
      const raw = { userId: '  u_1 ', seats: '3', since: '2026-01-02T03:04:05.000Z', extra: 'not in the schema' }
      const contextTool = (execute: (context: any) => unknown) =>
        createTool({ id: 'ctx', description: 'x', requestContextSchema: schema, execute: async (_input: unknown, context: any) => execute(context.requestContext) })

      it('the tool sees the parsed values (transforms, defaults, coercions, codecs), unnamed keys still there', async () => {
        let seen: any
        await contextTool((context) => void (seen = context.all)).execute({}, { requestContext: new RequestContext(raw) })
        expect(seen).toEqual({ userId: 'u_1', plan: 'free', seats: 3, since: new Date('2026-01-02T03:04:05.000Z'), extra: 'not in the schema' })
        expect(seen.since).toBeInstanceOf(Date)
      })

      it("the caller's RequestContext keeps its raw values", async () => {
        const context = new RequestContext(raw)
        await contextTool(() => 'ok').execute({}, { requestContext: context })
        expect(context.all).toEqual(raw)
      })

      it("a set inside execute writes through to the caller's context; a codec's value is encoded back", async () => {
        const context = new RequestContext(raw)
        await contextTool((view) => {
          view.set('plan', 'pro')
          view.set('since', new Date('2027-05-06T07:08:09.000Z'))
          expect(view.get('since')).toEqual(new Date('2027-05-06T07:08:09.000Z'))
        }).execute({}, { requestContext: context })
        expect(context.get('plan')).toBe('pro')
        expect(context.get('since')).toBe('2027-05-06T07:08:09.000Z')
      })

      it('a value that is neither schema input nor encodable is refused, and the caller keeps what it had', async () => {
        const context = new RequestContext(raw)
        const call = contextTool((view) => view.set('plan', 'enterprise')).execute({}, { requestContext: context })
        await expect(call).rejects.toThrow('Unable to persist request context key "plan"')
        expect(context.has('plan')).toBe(false)
      })

      it("delete and clear inside execute write through to the caller's context", async () => {
        const context = new RequestContext({ ...raw, plan: 'pro' })
        await contextTool((view) => view.delete('extra')).execute({}, { requestContext: context })
        expect(context.has('extra')).toBe(false)
        await contextTool((view) => view.clear()).execute({}, { requestContext: context })
        expect(context.size()).toBe(0)
      })

      it('a request context against the schema is a validation error naming the tool; execute never runs', async () => {
        const execute = vi.fn()
        const result = await contextTool(execute).execute({}, { requestContext: new RequestContext({ ...raw, seats: 'many' }) })
        expect(result).toMatchObject({
          error: true,
          message: expect.stringMatching(/^Request context validation failed for ctx\. Please fix the following errors and try again:\n- seats: /),
          validationErrors: { errors: [], fields: { seats: { errors: [expect.any(String)] } } },
        })
        expect(execute).not.toHaveBeenCalled()
      })

      it("execute's context holds a requestContext equal to the caller's, as Mastra's own tests assert it (objectContaining)", async () => {
        const execute = vi.fn(async () => 'ok')
        const requestContext = new RequestContext({ userId: 'u_1' })
        await createTool({ id: 'ctx', description: 'x', requestContextSchema: z.object({ userId: z.string() }), execute }).execute({}, { requestContext })
        expect(execute).toHaveBeenCalledWith({}, expect.objectContaining({ requestContext }))
      })

      it("the message never shows a secret key's value", async () => {
        const tool = createTool({ id: 'secret', description: 'x', requestContextSchema: z.object({ apiKey: z.string().min(40) }), execute: async () => 'ok' })
        const result = await tool.execute({}, { requestContext: new RequestContext({ apiKey: 'sk-live-short' }) })
        expect(result).toMatchObject({ error: true, message: expect.stringContaining('[REDACTED]') })
        expect(result.message).not.toContain('sk-live-short')
      })
    })
  })

  it("an output that JSON cannot write is shown as Mastra shows it: [Unable to serialize data]", async () => {
    const tool = createTool({ id: 'big', description: 'x', outputSchema: z.object({ n: z.number() }), execute: async () => ({ n: 1n }) })
    const result = await tool.execute({})
    expect(result).toMatchObject({ error: true, message: expect.stringContaining('[Unable to serialize data]') })
  })

  describe('5. a Standard Schema without Standard JSON Schema', () => {
    it('is accepted at definition (plain Valibot, a hand-written ~standard), and valid input runs', async () => {
      const valibot = createTool({ id: 'plain-valibot', description: 'x', inputSchema: v.object({ q: v.string() }), execute: async (input: unknown) => input })
      expect(await valibot.execute({ q: 'cats' })).toEqual({ q: 'cats' })
      const handWritten = { '~standard': { version: 1, vendor: 'mine', validate: (value: unknown) => ({ value }) } }
      const custom = createTool({ id: 'hand-written', description: 'x', inputSchema: handWritten, execute: async () => 'ok' })
      expect(await custom.execute({ anything: true })).toBe('ok')
    })
  })

  describe('6. model repairs before failing validation', () => {
    it('null or undefined input for an array schema is []', async () => {
      const { tool, seen } = echo({ inputSchema: z.array(z.string()) })
      expect(await tool.execute(null)).toEqual([])
      expect(await tool.execute(undefined)).toEqual([])
      expect(seen.input).toEqual([])
    })

    it('null or undefined input for an object schema whose fields are optional is {}', async () => {
      const { tool } = echo({ inputSchema: z.object({ q: z.string().optional() }) })
      expect(await tool.execute(null)).toEqual({})
      expect(await tool.execute(undefined)).toEqual({})
    })

    it('a top-level array field that arrived as a JSON string is parsed', async () => {
      const { tool } = echo({ inputSchema: z.object({ command: z.string(), files: z.array(z.string()) }) })
      expect(await tool.execute({ command: 'python', files: '["a.py", "b.py"]' })).toEqual({ command: 'python', files: ['a.py', 'b.py'] })
    })

    it('a top-level object field that arrived as a JSON string is parsed, also when optional', async () => {
      const { tool } = echo({ inputSchema: z.object({ filter: z.object({ tag: z.string() }).optional() }) })
      expect(await tool.execute({ filter: '{"tag":"x"}' })).toEqual({ filter: { tag: 'x' } })
    })

    it('a string field keeps a string that looks like JSON', async () => {
      const { tool } = echo({ inputSchema: z.object({ text: z.string() }) })
      expect(await tool.execute({ text: '["a"]' })).toEqual({ text: '["a"]' })
    })

    it('a JSON string of the wrong kind is not parsed, and the call fails', async () => {
      const { tool } = echo({ inputSchema: z.object({ files: z.array(z.string()) }) })
      expect(await tool.execute({ files: '{"a":1}' })).toMatchObject({ error: true, validationErrors: { fields: { files: { errors: [expect.any(String)] } } } })
    })

    it('null for an optional field counts as absent; null for a field with a default takes the default', async () => {
      const { tool } = echo({ inputSchema: z.object({ q: z.string(), units: z.string().optional(), limit: z.number().default(10) }) })
      expect(await tool.execute({ q: 'a', units: null, limit: null })).toEqual({ q: 'a', limit: 10 })
    })

    it('null for a nullable field stays null', async () => {
      const { tool } = echo({ inputSchema: z.object({ nickname: z.string().nullable() }) })
      expect(await tool.execute({ nickname: null })).toEqual({ nickname: null })
    })

    it("an input failure is Mastra's message and nested validationErrors; execute never runs", async () => {
      const { tool, seen } = echo({ id: 'search', inputSchema: z.object({ q: z.string(), filter: z.object({ tag: z.string() }) }) })
      const result = await tool.execute({ q: 1, filter: { tag: 2 } })
      expect(result).toEqual({
        error: true,
        message: expect.stringMatching(
          /^Tool input validation failed for search\. Please fix the following errors and try again:\n- q: .+\n- filter\.tag: .+\n\nProvided arguments: \{\n {2}"q": 1,/,
        ),
        validationErrors: {
          errors: [],
          fields: { q: { errors: [expect.any(String)], fields: {} }, filter: { errors: [], fields: { tag: { errors: [expect.any(String)], fields: {} } } } },
        },
      })
      expect(seen.input).toBeUndefined()
    })

    it('an output failure shows the returned output, truncated', async () => {
      const tool = createTool({ id: 'bad-output', description: 'x', outputSchema: z.object({ count: z.number() }), execute: async () => ({ count: 'many' }) })
      expect(await tool.execute({})).toEqual({
        error: true,
        message: expect.stringMatching(/^Tool output validation failed for bad-output\. The tool returned invalid output:\n- count: .+\n\nReturned output: \{\n {2}"count": "many"\n\}$/),
        validationErrors: { errors: [], fields: { count: { errors: [expect.any(String)], fields: {} } } },
      })
      const long = createTool({ id: 'long', description: 'x', outputSchema: z.object({ n: z.number() }), execute: async () => ({ n: 'x'.repeat(500) }) })
      expect((await long.execute({})).message).toMatch(/Returned output: \{\n {2}"n": "x+\.\.\. \(truncated\)$/)
    })
  })
})

// The same failing calls on both: toolroute's results equal Mastra's, field for field.
describe('toolroute and Mastra return the same validation results', () => {
  const both = async (options: Record<string, unknown>, input: unknown, context?: (impl: Implementation) => unknown) => {
    const results = []
    for (const impl of [toolroute, mastra]) {
      const tool = impl.createTool({ id: 'same', description: 'x', execute: async (value: unknown) => value, ...options })
      results.push(await tool.execute(input, context?.(impl)))
    }
    return results
  }

  it.each([
    ['a wrong type', { inputSchema: z.object({ q: z.string() }) }, { q: 1 }],
    ['nested fields and array items', { inputSchema: z.object({ stops: z.array(z.object({ name: z.string() })) }) }, { stops: [{ name: 1 }, {}] }],
    ['a root failure', { inputSchema: z.string() }, 42],
    ['a bad output', { outputSchema: z.object({ n: z.number() }), execute: async () => ({ n: 'x' }) }, {}],
  ])('%s', async (_case, options, input) => {
    const [ours, theirs] = await both(options, input)
    expect(ours).toEqual(theirs)
  })

  it('a request context failure', async () => {
    const [ours, theirs] = await both({ requestContextSchema: z.object({ userId: z.string() }) }, {}, (impl) => ({ requestContext: new impl.RequestContext({ userId: 7 }) }))
    expect(ours).toEqual(theirs)
  })
})

// Where toolroute differs from Mastra 1.71 on purpose (each listed in the README with its reason).
describe('deliberate differences, both behaviours pinned', () => {
  it('a Standard Schema without JSON Schema: toolroute validates with it, Mastra 1.71 lets anything through', async () => {
    const options = { id: 'plain-valibot', description: 'x', inputSchema: v.object({ q: v.string() }), execute: async (input: unknown) => input }
    expect(await toolroute.createTool(options).execute({ q: 7 })).toMatchObject({ error: true, validationErrors: { fields: { q: { errors: [expect.any(String)] } } } })
    expect(await mastra.createTool(options).execute({ q: 7 })).toEqual({ q: 7 })
  })

  it('an id must be a non-empty string of at most 128 characters: toolroute refuses others at definition, Mastra takes anything', () => {
    for (const id of ['', 'a'.repeat(129), undefined]) {
      expect(() => toolroute.createTool({ id, description: 'x' })).toThrow('id must be a non-empty string of at most 128 characters')
      expect(() => mastra.createTool({ id, description: 'x' })).not.toThrow()
    }
  })

  it('a description must be non-empty: toolroute refuses an empty one at definition, Mastra takes it', () => {
    expect(() => toolroute.createTool({ id: 'd', description: '' })).toThrow('description must be a non-empty string')
    expect(() => mastra.createTool({ id: 'd', description: '' })).not.toThrow()
  })

  it('hooks run on a direct call in toolroute (as on every surface); Mastra runs them only from an agent', async () => {
    for (const [impl, runs] of [[toolroute, true], [mastra, false]] as const) {
      const onInputAvailable = vi.fn()
      await impl.createTool({ id: 'h', description: 'x', onInputAvailable, execute: async () => 'ok' }).execute({})
      expect(onInputAvailable).toHaveBeenCalledTimes(runs ? 1 : 0)
    }
  })

  it('a resumed direct call: toolroute validates the input again, Mastra skips input validation', async () => {
    const options = { id: 'r', description: 'x', inputSchema: z.object({ q: z.string() }), execute: async (input: unknown) => input }
    const context = { agent: { toolCallId: 'call_1', messages: [], resumeData: { ok: true } } }
    expect(await toolroute.createTool(options).execute({}, context)).toMatchObject({ error: true })
    expect(await mastra.createTool(options).execute({}, context)).toEqual({})
  })

  it('context.suspend is always there in toolroute (the same as agent.suspend); Mastra has it only when the caller passed one', async () => {
    const seen: unknown[] = []
    for (const impl of [toolroute, mastra]) {
      await impl.createTool({ id: 's', description: 'x', execute: async (_input: unknown, context: any) => void seen.push(typeof context.suspend) }).execute({})
    }
    expect(seen).toEqual(['function', 'undefined'])
  })

  it('bad input and a bad request context: a direct call reports the input, as Mastra does (HTTP and MCP keep SPEC §2: the context first)', async () => {
    for (const [impl, first] of [[toolroute, 'Tool input'], [mastra, 'Tool input']] as const) {
      const tool = impl.createTool({ id: 'o', description: 'x', inputSchema: z.object({ q: z.string() }), requestContextSchema: z.object({ userId: z.string() }), execute: async () => 'ok' })
      const result = await tool.execute({ q: 1 }, { requestContext: new impl.RequestContext({ userId: 7 }) })
      expect(result.message).toMatch(new RegExp(`^${first} validation failed for o`))
    }
  })

  it('a plain object as requestContext: toolroute validates its values, Mastra reads none (it expects a RequestContext)', async () => {
    for (const [impl, passes] of [[toolroute, true], [mastra, false]] as const) {
      const tool = impl.createTool({ id: 'p', description: 'x', requestContextSchema: z.object({ userId: z.string() }), execute: async () => 'ok' })
      const result = await tool.execute({}, { requestContext: { userId: 'u_1' } })
      if (passes) expect(result).toBe('ok')
      else expect(result).toMatchObject({ error: true })
    }
  })
})
