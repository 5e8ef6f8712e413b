import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { compileSchema } from './compile-schema.ts'
import type { SchemaLike } from './standard-schema.ts'
import { validateWithNullRetry } from './validate-with-null-retry.ts'

// { city: string, units?: string, nickname: string | null, stops?: { name: string, note?: string }[] }
const schemas: Record<string, SchemaLike> = {
  zod: z.object({
    city: z.string(),
    units: z.string().optional(),
    nickname: z.string().nullable(),
    stops: z.array(z.object({ name: z.string(), note: z.string().optional() })).optional(),
  }),
  valibot: toStandardJsonSchema(
    v.object({
      city: v.string(),
      units: v.optional(v.string()),
      nickname: v.nullable(v.string()),
      stops: v.optional(v.array(v.object({ name: v.string(), note: v.optional(v.string()) }))),
    }),
  ),
  arktype: type({ city: 'string', 'units?': 'string', nickname: 'string | null', 'stops?': type({ name: 'string', 'note?': 'string' }).array() }),
  jsonSchema: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      units: { type: 'string' },
      nickname: { type: ['string', 'null'] },
      stops: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, note: { type: 'string' } }, required: ['name'] } },
    },
    required: ['city', 'nickname'],
  },
}

describe.each(Object.entries(schemas))('validateWithNullRetry(%s)', (_library, schema) => {
  const compiled = compileSchema(schema, 'x')

  it('treats null for an optional field as absent', () => {
    const result = validateWithNullRetry(compiled, { city: 'Oslo', units: null, nickname: 'O' })
    expect(result).toEqual({ ok: true, value: { city: 'Oslo', nickname: 'O' } })
  })

  it('treats null for an optional field inside an array item as absent', () => {
    const result = validateWithNullRetry(compiled, { city: 'Oslo', nickname: null, stops: [{ name: 'a', note: null }] })
    expect(result).toEqual({ ok: true, value: { city: 'Oslo', nickname: null, stops: [{ name: 'a' }] } })
  })

  it('keeps null where the field is nullable', () => {
    expect(validateWithNullRetry(compiled, { city: 'Oslo', nickname: null })).toEqual({ ok: true, value: { city: 'Oslo', nickname: null } })
  })

  it('still fails for null in a required field, with the first attempt\'s issues', () => {
    const result = validateWithNullRetry(compiled, { city: null, nickname: 'O' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toEqual([['city']])
  })

  it('does not drop nulls when another field is wrong too', () => {
    const result = validateWithNullRetry(compiled, { city: 5, units: null, nickname: 'O' })
    expect(result.ok).toBe(false)
  })

  it('treats a missing or null object input as {} (models send nothing when all fields are optional)', () => {
    const optional = compileSchema(z.object({ q: z.string().optional() }), 'x')
    expect(validateWithNullRetry(optional, undefined)).toEqual({ ok: true, value: {} })
    expect(validateWithNullRetry(optional, null)).toEqual({ ok: true, value: {} })
  })
})

describe('validateWithNullRetry', () => {
  it('leaves null alone for a schema that is not an object', () => {
    const nullableString = compileSchema(z.string().nullable(), 'x')
    expect(validateWithNullRetry(nullableString, null)).toEqual({ ok: true, value: null })
    expect(validateWithNullRetry(compileSchema(z.string(), 'x'), null).ok).toBe(false)
  })
})
