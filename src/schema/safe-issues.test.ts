import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { cfworkerJsonSchema } from './cfworker-json-schema.ts'
import { compileSchema } from './compile-schema.ts'
import { setJsonSchemaValidator } from './json-schema-validator.ts'
import type { SchemaLike, StandardSchemaV1 } from './standard-schema.ts'

setJsonSchemaValidator(cfworkerJsonSchema)

const secret = 'sk_live_7f3a9c'
const secretNumber = 73910462851937
const value = { choice: secret, pin: secretNumber, label: `${secret}-too-long` }

/** A careless hand-written Standard Schema: its messages quote what it received. */
const handWritten: StandardSchemaV1 = {
  '~standard': {
    version: 1,
    vendor: 'hand-written',
    validate: (input) => {
      const record = input as Record<string, unknown>
      return { issues: Object.keys(record).map((key) => ({ path: [key], message: `expected something else, got ${JSON.stringify(record[key])}` })) }
    },
  },
}

// { choice: 'a' | 'b', pin: number <= 10, label: string of at most 5 }, in every kind toolroute takes.
const schemas: Record<string, SchemaLike> = {
  zod: z.object({ choice: z.enum(['a', 'b']), pin: z.number().max(10), label: z.string().max(5) }),
  'zod (custom error quoting the input)': z.object({ choice: z.string().refine((text) => text === 'a', { error: (issue) => `not ${String(issue.input)}` }) }),
  valibot: toStandardJsonSchema(v.object({ choice: v.picklist(['a', 'b']), pin: v.pipe(v.number(), v.maxValue(10)), label: v.pipe(v.string(), v.maxLength(5)) })),
  'valibot (plain)': v.object({ choice: v.picklist(['a', 'b']), pin: v.pipe(v.number(), v.maxValue(10)), label: v.pipe(v.string(), v.maxLength(5)) }),
  arktype: type({ choice: "'a' | 'b'", pin: 'number <= 10', label: 'string <= 5' }),
  'JSON Schema': {
    type: 'object',
    properties: { choice: { enum: ['a', 'b'] }, pin: { type: 'number', maximum: 10 }, label: { type: 'string', maxLength: 5 } },
  },
  'hand-written ~standard': handWritten,
}

describe.each(Object.entries(schemas))('%s: a failing value is never in the issues', (_kind, schema) => {
  it('names each failing field, and no message quotes its value (nor its length)', () => {
    const result = compileSchema(schema, 'inputSchema of tool "t"').validate(value)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.issues.length).toBeGreaterThan(0)
    const text = JSON.stringify(result.issues)
    expect(text).not.toContain(secret)
    expect(text).not.toContain(String(secretNumber))
    expect(text).not.toContain(String(value.label.length))
    for (const issue of result.issues) expect(issue.path.length).toBe(1)
  })
})

describe('messages say what was expected', () => {
  const messages = (schema: SchemaLike) => {
    const result = compileSchema(schema, 't').validate(value)
    return result.ok ? [] : result.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
  }

  it('Valibot: its message up to what it expected', () => {
    expect(messages(schemas.valibot!)).toEqual(['choice: Invalid type: Expected ("a" | "b")', 'pin: Invalid value: Expected <=10', 'label: Invalid length: Expected <=5'])
    expect(messages(v.object({ choice: v.string('Choice must be text') }))).toEqual([]) // valid: a string
    expect(messages(v.object({ pin: v.string('Pin must be text') }))).toEqual(['pin: Pin must be text'])
  })

  it('ArkType: must be <expected>, a union from its branches', () => {
    expect(messages(schemas.arktype!)).toEqual(['choice: must be "a" or "b"', 'label: must be at most length 5', 'pin: must be at most 10'])
    expect(messages(type({ missing: 'string' }))).toEqual(['missing: must be a string (was missing)'])
  })

  it('JSON Schema: the bound, not the number or length that broke it', () => {
    expect(messages(schemas['JSON Schema']!)).toEqual([
      'choice: Instance does not match any of ["a","b"].',
      'pin: Value is greater than 10.',
      'label: String is too long (at most 5).',
    ])
  })

  it('Zod: its own messages, which never quote the value', () => {
    expect(messages(schemas.zod!)).toEqual(['choice: Invalid option: expected one of "a"|"b"', 'pin: Too big: expected number to be <=10', 'label: Too big: expected string to have <=5 characters'])
  })

  it('a message that quotes the value anyway is replaced, and so is a missing one', () => {
    expect(messages(handWritten)).toEqual(['choice: Invalid value', 'pin: Invalid value', 'label: Invalid value'])
    const silent = { '~standard': { version: 1, vendor: 'x', validate: () => ({ issues: [{ path: ['a'] }] }) } } as unknown as StandardSchemaV1
    expect(messages(silent)).toEqual(['a: Invalid value'])
  })
})

describe('plain JSON Schema and values JSON cannot carry (a direct call)', () => {
  const check = compileSchema({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] }, 't')

  it('an undefined field is absent, as JSON carries it, instead of throwing (seed 890653334)', () => {
    expect(check.validate({ a: 'x', b: undefined })).toEqual({ ok: true, value: { a: 'x', b: undefined } })
    expect(check.validate({ a: undefined })).toMatchObject({ ok: false, issues: [{ path: [], message: 'Instance does not have required property "a".' }] })
    expect(compileSchema({ type: 'array', items: { type: 'null' } }, 't').validate([undefined])).toMatchObject({ ok: true })
  })

  it('a value JSON cannot write fails at its root', () => {
    expect(check.validate({ a: 1n })).toEqual({ ok: false, issues: [{ path: [], message: 'Value is not representable as JSON.' }] })
    expect(check.validate({ a: 'x', b: () => 1 })).toMatchObject({ ok: true })
  })

  it('a schema fault still throws', () => {
    const broken = compileSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, 't')
    expect(() => broken.validate({ a: 1 })).toThrow(/Unresolved \$ref/)
    expect(() => broken.validate({ a: 1, f: () => 1 })).toThrow(/Unresolved \$ref/)
  })
})
