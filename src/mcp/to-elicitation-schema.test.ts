import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { toElicitationSchema } from './to-elicitation-schema.ts'

const jsonOf = (schema: z.ZodType) => z.toJSONSchema(schema) as Record<string, unknown>

describe('toElicitationSchema', () => {
  it('keeps a flat object of primitives, dropping keywords a form cannot carry', () => {
    const schema = jsonOf(
      z.object({
        seat: z.string().regex(/^\d+[A-F]$/).describe('Seat number'),
        email: z.email(),
        count: z.number().int().min(1).max(9),
        window: z.boolean().default(false),
        meal: z.enum(['veg', 'fish']),
        extras: z.array(z.enum(['bag', 'wifi'])).max(2),
        note: z.string().optional(),
      }),
    )
    expect(toElicitationSchema(schema)).toEqual({
      type: 'object',
      properties: {
        seat: { type: 'string', description: 'Seat number' },
        email: { type: 'string', format: 'email' },
        count: { type: 'integer', minimum: 1, maximum: 9 },
        window: { type: 'boolean', default: false },
        meal: { type: 'string', enum: ['veg', 'fish'] },
        extras: { type: 'array', items: { type: 'string', enum: ['bag', 'wifi'] }, maxItems: 2 },
        note: { type: 'string' },
      },
      required: ['seat', 'email', 'count', 'window', 'meal', 'extras'],
    })
  })

  it('refuses what a flat form cannot express', () => {
    expect(toElicitationSchema(undefined)).toBeUndefined()
    expect(toElicitationSchema(jsonOf(z.string()))).toBeUndefined()
    expect(toElicitationSchema(jsonOf(z.object({ stops: z.array(z.object({ name: z.string() })) })))).toBeUndefined()
    expect(toElicitationSchema(jsonOf(z.object({ address: z.object({ city: z.string() }) })))).toBeUndefined()
    expect(toElicitationSchema(jsonOf(z.object({ id: z.union([z.string(), z.number()]) })))).toBeUndefined()
    expect(toElicitationSchema(jsonOf(z.object({ tags: z.array(z.string()) })))).toBeUndefined()
    expect(toElicitationSchema(jsonOf(z.union([z.object({ a: z.string() }), z.object({ b: z.string() })])))).toBeUndefined()
  })

  it('drops string formats MCP forms do not know', () => {
    expect(toElicitationSchema(jsonOf(z.object({ id: z.uuid() })))?.properties.id).toEqual({ type: 'string' })
  })
})
