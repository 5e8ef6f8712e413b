import * as v from 'valibot'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { RequestContext } from '../tool/request-context.ts'
import type { ValidationError } from '../schema/format-validation-errors.ts'
import { createTool } from './create-tool.ts'
import { Tool } from './tool.ts'
import type { InferToolInput, InferToolOutput } from '../tool/tool-types.ts'
import type { AgentToolContext } from '../tool/tool-execution-context.ts'

describe('new Tool(options)', () => {
  it('infers the same types as createTool', () => {
    const options = {
      id: 'Lookup order',
      description: 'x',
      inputSchema: z.object({ orderNumber: z.string() }),
      outputSchema: z.object({ status: z.enum(['open', 'shipped']) }),
      execute: async ({ orderNumber }: { orderNumber: string }) => ({ status: orderNumber ? ('open' as const) : ('shipped' as const) }),
    }
    const constructed = new Tool(options)
    const created = createTool(options)
    expectTypeOf(constructed).toEqualTypeOf(created)
    expectTypeOf(new Tool({ id: 'Lookup order', description: 'x' }).id).toEqualTypeOf<'Lookup order'>()
    expectTypeOf<InferToolInput<typeof constructed>>().toEqualTypeOf<{ orderNumber: string }>()
    expectTypeOf<InferToolOutput<typeof constructed>>().toEqualTypeOf<{ status: 'open' | 'shipped' }>()
    expectTypeOf(constructed.execute).returns.resolves.toEqualTypeOf<{ status: 'open' | 'shipped' } | ValidationError | undefined>()
  })

  it('is an instance check and a type', () => {
    const value: unknown = createTool({ id: 't', description: 'x' })
    if (value instanceof Tool) expectTypeOf(value.id).toEqualTypeOf<string>()
    expectTypeOf<Tool>().toHaveProperty('strict')
  })

  it('options are readable on the tool, and execute can be reassigned', () => {
    const tool = createTool({ id: 't', description: 'x', strict: true, inputExamples: [{ input: { q: 'a' } }], execute: async () => 'ok' })
    expectTypeOf(tool.strict).toEqualTypeOf<boolean | undefined>()
    expectTypeOf(tool.inputExamples).toEqualTypeOf<Array<{ input: Record<string, unknown> }> | undefined>()
    tool.execute = async () => 'wrapped'
  })

  it('accepts a schema without Standard JSON Schema, with its types', () => {
    const tool = createTool({ id: 'plain-valibot', description: 'x', inputSchema: v.object({ q: v.string() }), execute: async ({ q }) => q })
    expectTypeOf<InferToolInput<typeof tool>>().toEqualTypeOf<{ q: string }>()
  })
})

describe('the execution context and RequestContext', () => {
  it("agent is optional, its agentId a string; a direct call may pass Mastra's flat agent fields", () => {
    createTool({
      id: 't',
      description: 'x',
      execute: async (_input, context) => {
        expectTypeOf(context.agent).toEqualTypeOf<AgentToolContext<unknown, unknown> | undefined>()
        expectTypeOf(context.agent!.agentId).toEqualTypeOf<string>()
        return 'ok'
      },
    }).execute({}, { toolCallId: 'call_1', messages: [], agentId: 'support', threadId: 't_1' })
  })

  it('has size() as a method, all, and the raw accessors', () => {
    const context = new RequestContext<{ userId: string }>([['userId', 'u_1']])
    expectTypeOf(context.size()).toEqualTypeOf<number>()
    expectTypeOf(context.all).toEqualTypeOf<{ userId: string }>()
    expectTypeOf(context.getRaw('mastra__resourceId')).toEqualTypeOf<unknown>()
    context.setRaw('anything', 1)
    // @ts-expect-error: a key the Values type does not declare needs setRaw
    context.set('anything', 1)
  })
})
