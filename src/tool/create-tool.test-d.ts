// The inferred types of `createTool` for Zod, Valibot and ArkType. One file over ~300 lines on purpose:
// each option's types are checked for the three libraries side by side.
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import type { RequestContext } from './request-context.ts'
import type { ToolModelOutput } from '../protocol/model-output.ts'
import type { ValidationError } from '../schema/format-validation-errors.ts'
import { createTool } from '../runtime/create-tool.ts'
import type { InferToolInput, InferToolOutput } from './tool-types.ts'

type Input = { location: string; days: number }
type Output = { location: string; temperatureCelsius: number }
type Suspend = { question: string }
type Resume = { approved: boolean }
type Context = { userId: string; plan: 'free' | 'pro' }

// The same tool written with each library; every type below must come out the same.
const libraries = {
  zod: {
    input: z.object({ location: z.string(), days: z.number() }),
    output: z.object({ location: z.string(), temperatureCelsius: z.number() }),
    suspend: z.object({ question: z.string() }),
    resume: z.object({ approved: z.boolean() }),
    context: z.object({ userId: z.string(), plan: z.enum(['free', 'pro']) }),
  },
  valibot: {
    input: toStandardJsonSchema(v.object({ location: v.string(), days: v.number() })),
    output: toStandardJsonSchema(v.object({ location: v.string(), temperatureCelsius: v.number() })),
    suspend: toStandardJsonSchema(v.object({ question: v.string() })),
    resume: toStandardJsonSchema(v.object({ approved: v.boolean() })),
    context: toStandardJsonSchema(v.object({ userId: v.string(), plan: v.picklist(['free', 'pro']) })),
  },
  arktype: {
    input: type({ location: 'string', days: 'number' }),
    output: type({ location: 'string', temperatureCelsius: 'number' }),
    suspend: type({ question: 'string' }),
    resume: type({ approved: 'boolean' }),
    context: type({ userId: 'string', plan: "'free' | 'pro'" }),
  },
}

// Written out once per library (not through a generic helper), so each inference is checked on its own.
const zodTool = createTool({
  id: 'typed-tool',
  description: 'Types inferred from schemas',
  inputSchema: libraries.zod.input,
  outputSchema: libraries.zod.output,
  suspendSchema: libraries.zod.suspend,
  resumeSchema: libraries.zod.resume,
  requestContextSchema: libraries.zod.context,
  requireApproval: (input, { requestContext }) => {
    expectTypeOf(input).toEqualTypeOf<Input>()
    expectTypeOf(requestContext).toEqualTypeOf<Context>()
    return input.days > 7
  },
  toModelOutput: (output) => {
    expectTypeOf(output).toEqualTypeOf<Output>()
    return { type: 'text', value: `${output.temperatureCelsius}°C` }
  },
  transform: {
    display: {
      input: ({ input }) => {
        expectTypeOf(input).toEqualTypeOf<Input | undefined>()
        return { location: input?.location }
      },
      output: ({ output }) => {
        expectTypeOf(output).toEqualTypeOf<Output | undefined>()
        return output?.location
      },
    },
  },
  onInputStart: ({ toolCallId, messages, abortSignal }) => {
    expectTypeOf(toolCallId).toEqualTypeOf<string>()
    expectTypeOf(messages).toEqualTypeOf<unknown[]>()
    expectTypeOf(abortSignal).toEqualTypeOf<AbortSignal | undefined>()
  },
  onInputDelta: ({ inputTextDelta }) => {
    expectTypeOf(inputTextDelta).toEqualTypeOf<string>()
  },
  onInputAvailable: ({ input }) => {
    expectTypeOf(input).toEqualTypeOf<Input>()
  },
  onOutput: ({ output, toolName }) => {
    expectTypeOf(output).toEqualTypeOf<Output>()
    expectTypeOf(toolName).toEqualTypeOf<string>()
  },
  execute: async (input, context) => {
    expectTypeOf(input).toEqualTypeOf<Input>()
    expectTypeOf(context.requestContext).toEqualTypeOf<RequestContext<Context>>()
    expectTypeOf(context.requestContext.get('userId')).toEqualTypeOf<string>()
    expectTypeOf(context.requestContext.get('plan')).toEqualTypeOf<'free' | 'pro'>()
    // @ts-expect-error not a key of the request context schema
    context.requestContext.get('tenantId')
    expectTypeOf(context.abortSignal).toEqualTypeOf<AbortSignal>()
    expectTypeOf(context.resumeData).toEqualTypeOf<Resume | undefined>()
    expectTypeOf(context.suspendPayload).toEqualTypeOf<Suspend | undefined>()
    expectTypeOf(context.agent?.resumeData).toEqualTypeOf<Resume | undefined>()
    expectTypeOf(context.agent?.suspendPayload).toEqualTypeOf<Suspend | undefined>()
    expectTypeOf(context.suspend).parameter(0).toEqualTypeOf<Suspend>()
    expectTypeOf(context.agent!.suspend).parameter(0).toEqualTypeOf<Suspend>()
    // @ts-expect-error the suspend payload must match suspendSchema
    await context.suspend({ question: 42 })
    expectTypeOf(context.observe.span).toBeFunction()
    return { location: input.location, temperatureCelsius: 21 }
  },
})

const valibotTool = createTool({
  id: 'typed-tool',
  description: 'Types inferred from schemas',
  inputSchema: libraries.valibot.input,
  outputSchema: libraries.valibot.output,
  suspendSchema: libraries.valibot.suspend,
  resumeSchema: libraries.valibot.resume,
  requestContextSchema: libraries.valibot.context,
  requireApproval: (input, { requestContext }) => {
    expectTypeOf(input).toEqualTypeOf<Input>()
    expectTypeOf(requestContext).toEqualTypeOf<Context>()
    return input.days > 7
  },
  toModelOutput: (output) => {
    expectTypeOf(output).toEqualTypeOf<Output>()
    return { type: 'text', value: `${output.temperatureCelsius}°C` }
  },
  transform: {
    display: {
      input: ({ input }) => {
        expectTypeOf(input).toEqualTypeOf<Input | undefined>()
        return { location: input?.location }
      },
      output: ({ output }) => {
        expectTypeOf(output).toEqualTypeOf<Output | undefined>()
        return output?.location
      },
    },
  },
  onInputStart: ({ toolCallId, messages, abortSignal }) => {
    expectTypeOf(toolCallId).toEqualTypeOf<string>()
    expectTypeOf(messages).toEqualTypeOf<unknown[]>()
    expectTypeOf(abortSignal).toEqualTypeOf<AbortSignal | undefined>()
  },
  onInputDelta: ({ inputTextDelta }) => {
    expectTypeOf(inputTextDelta).toEqualTypeOf<string>()
  },
  onInputAvailable: ({ input }) => {
    expectTypeOf(input).toEqualTypeOf<Input>()
  },
  onOutput: ({ output, toolName }) => {
    expectTypeOf(output).toEqualTypeOf<Output>()
    expectTypeOf(toolName).toEqualTypeOf<string>()
  },
  execute: async (input, context) => {
    expectTypeOf(input).toEqualTypeOf<Input>()
    expectTypeOf(context.requestContext).toEqualTypeOf<RequestContext<Context>>()
    expectTypeOf(context.requestContext.get('userId')).toEqualTypeOf<string>()
    expectTypeOf(context.requestContext.get('plan')).toEqualTypeOf<'free' | 'pro'>()
    // @ts-expect-error not a key of the request context schema
    context.requestContext.get('tenantId')
    expectTypeOf(context.abortSignal).toEqualTypeOf<AbortSignal>()
    expectTypeOf(context.resumeData).toEqualTypeOf<Resume | undefined>()
    expectTypeOf(context.suspendPayload).toEqualTypeOf<Suspend | undefined>()
    expectTypeOf(context.agent?.resumeData).toEqualTypeOf<Resume | undefined>()
    expectTypeOf(context.agent?.suspendPayload).toEqualTypeOf<Suspend | undefined>()
    expectTypeOf(context.suspend).parameter(0).toEqualTypeOf<Suspend>()
    expectTypeOf(context.agent!.suspend).parameter(0).toEqualTypeOf<Suspend>()
    // @ts-expect-error the suspend payload must match suspendSchema
    await context.suspend({ question: 42 })
    expectTypeOf(context.observe.span).toBeFunction()
    return { location: input.location, temperatureCelsius: 21 }
  },
})

const arktypeTool = createTool({
  id: 'typed-tool',
  description: 'Types inferred from schemas',
  inputSchema: libraries.arktype.input,
  outputSchema: libraries.arktype.output,
  suspendSchema: libraries.arktype.suspend,
  resumeSchema: libraries.arktype.resume,
  requestContextSchema: libraries.arktype.context,
  requireApproval: (input, { requestContext }) => {
    expectTypeOf(input).toEqualTypeOf<Input>()
    expectTypeOf(requestContext).toEqualTypeOf<Context>()
    return input.days > 7
  },
  toModelOutput: (output) => {
    expectTypeOf(output).toEqualTypeOf<Output>()
    return { type: 'text', value: `${output.temperatureCelsius}°C` }
  },
  transform: {
    display: {
      input: ({ input }) => {
        expectTypeOf(input).toEqualTypeOf<Input | undefined>()
        return { location: input?.location }
      },
      output: ({ output }) => {
        expectTypeOf(output).toEqualTypeOf<Output | undefined>()
        return output?.location
      },
    },
  },
  onInputStart: ({ toolCallId, messages, abortSignal }) => {
    expectTypeOf(toolCallId).toEqualTypeOf<string>()
    expectTypeOf(messages).toEqualTypeOf<unknown[]>()
    expectTypeOf(abortSignal).toEqualTypeOf<AbortSignal | undefined>()
  },
  onInputDelta: ({ inputTextDelta }) => {
    expectTypeOf(inputTextDelta).toEqualTypeOf<string>()
  },
  onInputAvailable: ({ input }) => {
    expectTypeOf(input).toEqualTypeOf<Input>()
  },
  onOutput: ({ output, toolName }) => {
    expectTypeOf(output).toEqualTypeOf<Output>()
    expectTypeOf(toolName).toEqualTypeOf<string>()
  },
  execute: async (input, context) => {
    expectTypeOf(input).toEqualTypeOf<Input>()
    expectTypeOf(context.requestContext).toEqualTypeOf<RequestContext<Context>>()
    expectTypeOf(context.requestContext.get('userId')).toEqualTypeOf<string>()
    expectTypeOf(context.requestContext.get('plan')).toEqualTypeOf<'free' | 'pro'>()
    // @ts-expect-error not a key of the request context schema
    context.requestContext.get('tenantId')
    expectTypeOf(context.abortSignal).toEqualTypeOf<AbortSignal>()
    expectTypeOf(context.resumeData).toEqualTypeOf<Resume | undefined>()
    expectTypeOf(context.suspendPayload).toEqualTypeOf<Suspend | undefined>()
    expectTypeOf(context.agent?.resumeData).toEqualTypeOf<Resume | undefined>()
    expectTypeOf(context.agent?.suspendPayload).toEqualTypeOf<Suspend | undefined>()
    expectTypeOf(context.suspend).parameter(0).toEqualTypeOf<Suspend>()
    expectTypeOf(context.agent!.suspend).parameter(0).toEqualTypeOf<Suspend>()
    // @ts-expect-error the suspend payload must match suspendSchema
    await context.suspend({ question: 42 })
    expectTypeOf(context.observe.span).toBeFunction()
    return { location: input.location, temperatureCelsius: 21 }
  },
})

const tools = [zodTool, valibotTool, arktypeTool]

describe('createTool types', () => {
  it('gives the tool the same types whatever the library', () => {
    expectTypeOf<InferToolInput<typeof zodTool>>().toEqualTypeOf<Input>()
    expectTypeOf<InferToolInput<typeof valibotTool>>().toEqualTypeOf<Input>()
    expectTypeOf<InferToolInput<typeof arktypeTool>>().toEqualTypeOf<Input>()
    expectTypeOf<InferToolOutput<typeof zodTool>>().toEqualTypeOf<Output>()
    expectTypeOf<InferToolOutput<typeof valibotTool>>().toEqualTypeOf<Output>()
    expectTypeOf<InferToolOutput<typeof arktypeTool>>().toEqualTypeOf<Output>()
    for (const tool of tools) {
      expectTypeOf(tool.id).toEqualTypeOf<'typed-tool'>()
      expectTypeOf(tool.execute).parameter(0).toEqualTypeOf<Input>()
      expectTypeOf(tool.execute).returns.toEqualTypeOf<Promise<Output | ValidationError | undefined>>()
    }
  })

  it('types the direct call context: request context values, resumeData, suspend', () => {
    for (const tool of tools) {
      void tool.execute({ location: 'x', days: 1 }, { requestContext: { userId: 'u', plan: 'pro' } })
    // @ts-expect-error plan is 'free' | 'pro'
    void tool.execute({ location: 'x', days: 1 }, { requestContext: { plan: 'gold' } })
    void tool.execute({ location: 'x', days: 1 }, {
      agent: {
        resumeData: { approved: true },
        suspend: async (payload) => {
          expectTypeOf(payload).toEqualTypeOf<Suspend>()
        },
      },
    })
    // @ts-expect-error resumeData must match resumeSchema
    void tool.execute({ location: 'x', days: 1 }, { agent: { resumeData: { approved: 'yes' } } })
    // @ts-expect-error the input must match inputSchema
    void tool.execute({ location: 'x' })
    }
  })

  it.each([
    ['Zod', z.object({ n: z.number() })],
    ['Valibot', toStandardJsonSchema(v.object({ n: v.number() }))],
    ['ArkType', type({ n: 'number' })],
  ])('rejects an execute whose return breaks outputSchema (%s)', (_library, outputSchema) => {
    createTool({
      id: 'wrong-return',
      description: 'x',
      outputSchema,
      // @ts-expect-error n must be a number
      execute: async () => ({ n: 'many' }),
    })
    createTool({ id: 'right-return', description: 'x', outputSchema, execute: async () => ({ n: 1 }) })
    // Returning a validation error, or nothing (after suspend), is allowed, as in Mastra.
    createTool({ id: 'error-return', description: 'x', outputSchema, execute: async () => ({ error: true as const, message: 'x', validationErrors: { errors: [], fields: {} } }) })
    createTool({ id: 'void-return', description: 'x', outputSchema, execute: async () => undefined })
  })

  it('separates what callers send (schema input) from what execute gets (schema output)', () => {
    const tool = createTool({
      id: 'defaults',
      description: 'x',
      inputSchema: z.object({ q: z.string(), limit: z.number().default(10) }),
      outputSchema: z.object({ count: z.string().transform((text) => text.length) }),
      toModelOutput: (output) => {
        expectTypeOf(output).toEqualTypeOf<{ count: number }>()
        return String(output.count)
      },
      execute: async (input) => {
        expectTypeOf(input).toEqualTypeOf<{ q: string; limit: number }>()
        return { count: 'three' }
      },
    })
    expectTypeOf<InferToolInput<typeof tool>>().toEqualTypeOf<{ q: string; limit?: number | undefined }>()
    expectTypeOf<InferToolOutput<typeof tool>>().toEqualTypeOf<{ count: number }>()
  })

  // TypeScript infers from an object literal's functions left to right: with no outputSchema,
  // write execute before the hooks that read its output (as with Mastra's createTool).
  it('infers the output from execute when there is no outputSchema', () => {
    const tool = createTool({
      id: 'no-output-schema',
      description: 'x',
      inputSchema: z.object({ a: z.number() }),
      execute: async ({ a }) => ({ doubled: a * 2 }),
      onOutput: ({ output }) => {
        expectTypeOf(output).toEqualTypeOf<{ doubled: number }>()
      },
      toModelOutput: (output) => {
        expectTypeOf(output).toEqualTypeOf<{ doubled: number }>()
        return String(output.doubled)
      },
    })
    expectTypeOf<InferToolOutput<typeof tool>>().toEqualTypeOf<{ doubled: number }>()
  })

  it('gives unknown for plain JSON Schema, which carries no types', () => {
    createTool({
      id: 'json-schema',
      description: 'x',
      inputSchema: { type: 'object', properties: { a: { type: 'number' } } },
      execute: async (input) => {
        expectTypeOf(input).toEqualTypeOf<unknown>()
        return 'ok'
      },
    })
  })

  it('accepts requireApproval as a boolean or an async function', () => {
    createTool({ id: 'a', description: 'x', requireApproval: true, execute: async () => 'ok' })
    createTool({ id: 'b', description: 'x', inputSchema: z.object({ n: z.number() }), requireApproval: async (input) => input.n > 1, execute: async () => 'ok' })
    // @ts-expect-error requireApproval is a boolean or a function
    createTool({ id: 'c', description: 'x', requireApproval: 'always', execute: async () => 'ok' })
  })

  it('types toModelOutput results as the AI SDK model output', () => {
    createTool({
      id: 'model',
      description: 'x',
      outputSchema: z.object({ png: z.string() }),
      toModelOutput: (output): ToolModelOutput => ({ type: 'content', value: [{ type: 'image-data', data: output.png, mediaType: 'image/png' }] }),
      execute: async () => ({ png: 'x' }),
    })
    createTool({
      id: 'bad-model',
      description: 'x',
      // @ts-expect-error not a model output
      toModelOutput: () => ({ type: 'markdown', value: '#' }),
      execute: async () => ({}),
    })
  })

  it('keeps the id as a literal type', () => {
    const tool = createTool({ id: 'literal-id', description: 'x', execute: async () => 'ok' })
    expectTypeOf(tool.id).toEqualTypeOf<'literal-id'>()
  })
})
