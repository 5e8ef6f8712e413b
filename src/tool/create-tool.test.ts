import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'
import { isTool } from './is-tool.ts'
import { cfworkerJsonSchema } from '../schema/cfworker-json-schema.ts'
import { setJsonSchemaValidator } from '../schema/json-schema-validator.ts'
import { Tool } from '../runtime/tool.ts'

// Plain JSON Schemas below: checked as outside Workers, where `import 'toolroute'` registers the validator.
setJsonSchemaValidator(cfworkerJsonSchema)

const inputSchema = z.object({ location: z.string().min(1) })
const outputSchema = z.object({ location: z.string(), temperatureCelsius: z.number() })

describe('createTool', () => {
  it('keeps every option of Mastra createTool on the tool', () => {
    const options = {
      id: 'full-tool',
      description: 'Uses every option',
      inputSchema,
      outputSchema,
      suspendSchema: z.object({ question: z.string() }),
      resumeSchema: z.object({ answer: z.string() }),
      requestContextSchema: z.object({ userId: z.string() }),
      strict: true,
      outputValidation: 'warn' as const,
      toModelOutput: (output: { location: string }) => ({ type: 'text' as const, value: output.location }),
      transform: { display: { input: () => ({ hidden: true }) }, transcript: { output: () => 'done' } },
      requireApproval: true,
      mcp: { annotations: { readOnlyHint: true, title: 'Full' }, _meta: { 'ui/resourceUri': 'ui://full' } },
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      inputExamples: [{ input: { location: 'Lisbon' } }],
      background: { enabled: true, timeoutMs: 5_000, maxRetries: 2 },
      execute: async ({ location }: { location: string }) => ({ location, temperatureCelsius: 20 }),
      onInputStart: () => {},
      onInputDelta: () => {},
      onInputAvailable: () => {},
      onOutput: () => {},
    }
    const tool = createTool(options)
    expect(tool.id).toBe('full-tool')
    expect(tool.description).toBe('Uses every option')
    expect(tool.options).toBe(options)
    expect(tool.inputSchema).toBe(inputSchema)
    expect(tool.outputSchema).toBe(outputSchema)
    expect(tool.suspendSchema).toBe(options.suspendSchema)
    expect(tool.resumeSchema).toBe(options.resumeSchema)
    expect(tool.requestContextSchema).toBe(options.requestContextSchema)
    expect(tool.requireApproval).toBe(true)
    expect(tool.mcp).toBe(options.mcp)
    expect(tool.background).toBe(options.background)
    expect(tool.options.strict).toBe(true)
    expect(tool.options.providerOptions).toEqual({ anthropic: { cacheControl: { type: 'ephemeral' } } })
    expect(tool.options.inputExamples).toEqual([{ input: { location: 'Lisbon' } }])
    expect(Object.keys(tool.schemas).sort()).toEqual(['input', 'output', 'requestContext', 'resume', 'suspend'])
    expect(tool.schemas.suspend?.jsonSchema).toMatchObject({ properties: { question: { type: 'string' } } })
    expect(tool.schemas.resume?.jsonSchema).toMatchObject({ properties: { answer: { type: 'string' } } })
    expect(tool.schemas.requestContext?.jsonSchema).toMatchObject({ properties: { userId: { type: 'string' } } })
  })

  it('defaults requireApproval to false and compiles only the schemas given', () => {
    const tool = createTool({ id: 'bare', description: 'No schemas', execute: async () => 'ok' })
    expect(tool.requireApproval).toBe(false)
    expect(tool.schemas).toEqual({})
    expect(tool.inputSchema).toBeUndefined()
  })

  it('keeps a requireApproval function as given', () => {
    const rule = (input: { location: string }) => input.location === 'Mars'
    const tool = createTool({ id: 'rule', description: 'x', inputSchema, requireApproval: rule, execute: async () => ({}) })
    expect(tool.requireApproval).toBe(rule)
  })

  it('computes JSON Schema once, at definition: the same object on every read', () => {
    const tool = createTool({ id: 'once', description: 'x', inputSchema, outputSchema, execute: async ({ location }) => ({ location, temperatureCelsius: 1 }) })
    const input = tool.schemas.input!
    const first = input.jsonSchema
    expect(first).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: ['location'] })
    expect(tool.schemas.input).toBe(input)
    expect(tool.schemas.input!.jsonSchema).toBe(first)
    expect(tool.schemas.output!.jsonSchema).toBe(tool.schemas.output!.jsonSchema)
  })

  it('runs the JSON Schema conversion once, when first read: not at definition, not per call', async () => {
    let conversions = 0
    const counted = {
      '~standard': {
        ...inputSchema['~standard'],
        jsonSchema: {
          input: (options: { target: string }) => (conversions++, inputSchema['~standard'].jsonSchema.input(options as never)),
          output: (options: { target: string }) => (conversions++, inputSchema['~standard'].jsonSchema.output(options as never)),
        },
      },
    } as unknown as typeof inputSchema
    const tool = createTool({ id: 'counted', description: 'x', inputSchema: counted, execute: async () => 'ok' })
    expect(conversions).toBe(0)
    await tool.execute({ location: 'a' })
    expect(conversions).toBe(0)
    expect(tool.schemas.input!.jsonSchema).toMatchObject({ type: 'object' })
    const once = conversions
    expect(once).toBeGreaterThan(0)
    await tool.execute({ location: 'b' })
    void tool.schemas.input!.jsonSchema
    expect(conversions).toBe(once)
  })

  it('asks for draft 2020-12 from Standard JSON Schema', () => {
    const targets: string[] = []
    const spy = {
      '~standard': {
        version: 1 as const,
        vendor: 'spy',
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: ({ target }: { target: string }) => (targets.push(target), { type: 'object' }),
          output: ({ target }: { target: string }) => (targets.push(target), { type: 'object' }),
        },
      },
    }
    const tool = createTool({ id: 'spy', description: 'x', inputSchema: spy, execute: async () => 'ok' })
    void tool.schemas.input!.outputJsonSchema
    expect(targets).toEqual(['draft-2020-12', 'draft-2020-12'])
  })

  it('is an ordinary Tool instance, recognised by isTool across copies (a Symbol.for marker)', () => {
    const tool = createTool({ id: 'frozen', description: 'x', execute: async () => 'ok' })
    expect(Object.isFrozen(tool)).toBe(false)
    expect(tool).toBeInstanceOf(Tool)
    expect(isTool(new Tool({ id: 'made-with-new', description: 'x' }))).toBe(true)
    expect(isTool(tool)).toBe(true)
    expect(isTool({ ...tool })).toBe(true)
    expect(isTool({ id: 'frozen', execute() {} })).toBe(false)
    expect(isTool(null)).toBe(false)
    expect(isTool({ [Symbol('toolroute.tool')]: true })).toBe(false)
  })

  describe.each([
    ['Zod', z.object({ location: z.string().min(1) }), z.object({ location: z.string(), temperatureCelsius: z.number() })],
    [
      'Valibot',
      toStandardJsonSchema(v.object({ location: v.pipe(v.string(), v.minLength(1)) })),
      toStandardJsonSchema(v.object({ location: v.string(), temperatureCelsius: v.number() })),
    ],
    ['ArkType', type({ location: 'string > 0' }), type({ location: 'string', temperatureCelsius: 'number' })],
    [
      'JSON Schema',
      { type: 'object', properties: { location: { type: 'string', minLength: 1 } }, required: ['location'] },
      { type: 'object', properties: { location: { type: 'string' }, temperatureCelsius: { type: 'number' } }, required: ['location', 'temperatureCelsius'] },
    ],
  ] as const)('with %s schemas', (_library, input, output) => {
    const tool = createTool({
      id: 'weather',
      description: 'Weather',
      inputSchema: input,
      outputSchema: output,
      execute: async (args: any) => (args.location === 'broken' ? { location: 1 } : { location: args.location, temperatureCelsius: 21 }),
    })

    it('executes valid input', async () => {
      expect(await tool.execute({ location: 'Lisbon' })).toEqual({ location: 'Lisbon', temperatureCelsius: 21 })
    })

    it('returns an input validation error, with the field in validationErrors', async () => {
      const result = await tool.execute({ location: '' } as never)
      expect(result).toMatchObject({ error: true, message: expect.stringContaining('Tool input validation failed for weather') })
      expect(result).toHaveProperty('validationErrors.fields.location.errors', [expect.any(String)])
    })

    it('returns an output validation error', async () => {
      const result = await tool.execute({ location: 'broken' })
      expect(result).toMatchObject({ error: true, message: expect.stringContaining('Tool output validation failed for weather') })
      expect(result).toHaveProperty('validationErrors.fields')
    })

    it('describes the schemas as JSON Schema', () => {
      expect(tool.schemas.input!.jsonSchema).toMatchObject({ type: 'object', required: ['location'] })
      expect(tool.schemas.output!.jsonSchema).toMatchObject({ type: 'object', properties: { temperatureCelsius: { type: 'number' } } })
    })
  })
})
