import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { compileSchema } from './compile-schema.ts'
import { cfworkerJsonSchema } from './cfworker-json-schema.ts'
import { setJsonSchemaValidator } from './json-schema-validator.ts'
import type { SchemaLike } from './standard-schema.ts'
import { validateWithRepairs } from './validate-with-repairs.ts'

// Plain JSON Schemas below: checked as outside Workers, where `import 'toolroute'` registers the validator.
setJsonSchemaValidator(cfworkerJsonSchema)

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

describe.each(Object.entries(schemas))('validateWithRepairs(%s)', (_library, schema) => {
  const compiled = compileSchema(schema, 'x')

  it('treats null for an optional field as absent', () => {
    const result = validateWithRepairs(compiled, { city: 'Oslo', units: null, nickname: 'O' })
    expect(result).toEqual({ ok: true, value: { city: 'Oslo', nickname: 'O' } })
  })

  it('treats null for an optional field inside an array item as absent', () => {
    const result = validateWithRepairs(compiled, { city: 'Oslo', nickname: null, stops: [{ name: 'a', note: null }] })
    expect(result).toEqual({ ok: true, value: { city: 'Oslo', nickname: null, stops: [{ name: 'a' }] } })
  })

  it('keeps null where the field is nullable', () => {
    expect(validateWithRepairs(compiled, { city: 'Oslo', nickname: null })).toEqual({ ok: true, value: { city: 'Oslo', nickname: null } })
  })

  it('still fails for null in a required field, with the first attempt\'s issues', () => {
    const result = validateWithRepairs(compiled, { city: null, nickname: 'O' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toEqual([['city']])
  })

  it('does not drop nulls when another field is wrong too', () => {
    const result = validateWithRepairs(compiled, { city: 5, units: null, nickname: 'O' })
    expect(result.ok).toBe(false)
  })

  it('treats a missing or null object input as {} (models send nothing when all fields are optional)', () => {
    const optional = compileSchema(z.object({ q: z.string().optional() }), 'x')
    expect(validateWithRepairs(optional, undefined)).toEqual({ ok: true, value: {} })
    expect(validateWithRepairs(optional, null)).toEqual({ ok: true, value: {} })
  })

  it('parses a top-level array or object field that arrived as a JSON string', () => {
    const result = validateWithRepairs(compiled, { city: 'Oslo', nickname: 'O', stops: '[{"name":"a"}]' })
    expect(result).toEqual({ ok: true, value: { city: 'Oslo', nickname: 'O', stops: [{ name: 'a' }] } })
  })

  it('parses a JSON string field and drops a null optional field in one repair', () => {
    const result = validateWithRepairs(compiled, { city: 'Oslo', units: null, nickname: 'O', stops: ' [{"name":"a"}] ' })
    expect(result).toEqual({ ok: true, value: { city: 'Oslo', nickname: 'O', stops: [{ name: 'a' }] } })
  })

  it('leaves a JSON string nested past the depth limit unparsed, as a body that deep would be (SPEC §12)', () => {
    const loose = compileSchema(z.object({ stops: z.array(z.unknown()) }), 'x')
    const at = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
    expect(validateWithRepairs(loose, { stops: at(256) })).toMatchObject({ ok: true })
    expect(validateWithRepairs(loose, { stops: at(257) })).toMatchObject({ ok: false })
  })

  it('leaves a string that is not the JSON of the right kind, and fails with the first issues', () => {
    for (const stops of ['[not json', '{"name":"a"}', 'a, b']) {
      const result = validateWithRepairs(compiled, { city: 'Oslo', nickname: 'O', stops })
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.issues.map((issue) => issue.path)).toEqual([['stops']])
    }
  })
})

describe('validateWithRepairs', () => {
  it('treats a missing or null array input as [] (Zod, JSON Schema)', () => {
    for (const schema of [z.array(z.string()), { type: 'array', items: { type: 'string' } } as const]) {
      const compiled = compileSchema(schema, 'x')
      expect(validateWithRepairs(compiled, undefined)).toEqual({ ok: true, value: [] })
      expect(validateWithRepairs(compiled, null)).toEqual({ ok: true, value: [] })
    }
  })

  it('a null for a field with a default takes the default', () => {
    const compiled = compileSchema(z.object({ q: z.string(), limit: z.number().default(10) }), 'x')
    expect(validateWithRepairs(compiled, { q: 'a', limit: null })).toEqual({ ok: true, value: { q: 'a', limit: 10 } })
  })

  it('does not parse a JSON string for a field that may be a string (a union with string)', () => {
    const compiled = compileSchema(z.object({ tags: z.union([z.string(), z.array(z.string())]) }), 'x')
    expect(validateWithRepairs(compiled, { tags: '["a"]' })).toEqual({ ok: true, value: { tags: '["a"]' } })
  })

  it('parses a JSON string for a nullable object field', () => {
    const compiled = compileSchema(z.object({ filter: z.object({ k: z.string() }).nullable() }), 'x')
    expect(validateWithRepairs(compiled, { filter: '{"k":"v"}' })).toEqual({ ok: true, value: { filter: { k: 'v' } } })
  })

  it('leaves null alone for a schema that is not an object', () => {
    const nullableString = compileSchema(z.string().nullable(), 'x')
    expect(validateWithRepairs(nullableString, null)).toEqual({ ok: true, value: null })
    expect(validateWithRepairs(compileSchema(z.string(), 'x'), null).ok).toBe(false)
  })
})
