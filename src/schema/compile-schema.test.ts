import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { compileSchema, isStandardSchema, toIssuePath } from './compile-schema.ts'
import { cfworkerJsonSchema } from './cfworker-json-schema.ts'
import { jsonSchemaValidator, setJsonSchemaValidator, type JsonSchemaValidator } from './json-schema-validator.ts'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { SchemaLike } from './standard-schema.ts'

// Plain JSON Schemas below: checked as outside Workers, where `import 'toolroute'` registers the validator.
setJsonSchemaValidator(cfworkerJsonSchema)

// The same schema written four ways: { location: non-empty string, days?: number }.
const schemas: Record<string, SchemaLike> = {
  zod: z.object({ location: z.string().min(1), days: z.number().optional() }),
  valibot: toStandardJsonSchema(v.object({ location: v.pipe(v.string(), v.minLength(1)), days: v.optional(v.number()) })),
  arktype: type({ location: 'string > 0', 'days?': 'number' }),
  jsonSchema: {
    type: 'object',
    properties: { location: { type: 'string', minLength: 1 }, days: { type: 'number' } },
    required: ['location'],
  },
}

describe.each(Object.entries(schemas))('compileSchema(%s)', (_library, schema) => {
  const compiled = compileSchema(schema, 'inputSchema of tool "t"')

  it('computes a draft 2020-12 JSON Schema of the object', () => {
    expect(compiled.jsonSchema).toMatchObject({
      type: 'object',
      properties: { location: { type: 'string', minLength: 1 }, days: { type: 'number' } },
      required: ['location'],
    })
    if (compiled.jsonSchema.$schema !== undefined) expect(compiled.jsonSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(compiled.outputJsonSchema).toMatchObject({ type: 'object', required: ['location'] })
  })

  it('accepts a valid value and returns it parsed', () => {
    expect(compiled.validate({ location: 'Lisbon', days: 3 })).toEqual({ ok: true, value: { location: 'Lisbon', days: 3 } })
    expect(compiled.validate({ location: 'Lisbon' })).toEqual({ ok: true, value: { location: 'Lisbon' } })
  })

  it('rejects an invalid value with one issue per field, each with a plain path', () => {
    const result = compiled.validate({ location: '', days: 'three' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    const paths = result.issues.map((issue) => issue.path)
    expect(paths).toEqual(expect.arrayContaining([['location'], ['days']]))
    expect(result.issues).toHaveLength(2)
    for (const issue of result.issues) expect(issue.message).toEqual(expect.any(String))
  })

  it('reports a missing required field', () => {
    const result = compiled.validate({})
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.issues.length).toBeGreaterThan(0)
  })

  it('rejects a value that is not an object', () => {
    expect(compiled.validate('Lisbon').ok).toBe(false)
    expect(compiled.validate(null).ok).toBe(false)
  })
})

describe('compileSchema', () => {
  it('keeps nested and array paths (numbers stay numbers)', () => {
    const nested = { type: 'object', properties: { stops: { type: 'array', items: { type: 'object', properties: { city: { type: 'string' } } } } } }
    for (const schema of [z.object({ stops: z.array(z.object({ city: z.string() })) }), nested] as SchemaLike[]) {
      const result = compileSchema(schema, 'x').validate({ stops: [{ city: 'Porto' }, { city: 7 }] })
      expect(result).toEqual({ ok: false, issues: [{ path: ['stops', 1, 'city'], message: expect.any(String) }] })
    }
  })

  it('uses the transformed output JSON Schema of a Zod transform, and falls back to the input one when the output cannot be described', () => {
    const piped = compileSchema(z.object({ n: z.string().pipe(z.coerce.number()) }), 'x')
    expect(piped.jsonSchema).toMatchObject({ properties: { n: { type: 'string' } } })
    expect(piped.outputJsonSchema).toMatchObject({ properties: { n: { type: 'number' } } })
    const transformed = compileSchema(z.object({ n: z.string().transform((text) => text.length) }), 'x')
    expect(transformed.outputJsonSchema).toBe(transformed.jsonSchema)
    expect(transformed.validate({ n: 'abc' })).toEqual({ ok: true, value: { n: 3 } })
  })

  it('validates plain JSON Schema with $ref, enums and formats, and returns the value as given', () => {
    const compiled = compileSchema(
      {
        $defs: { unit: { enum: ['celsius', 'fahrenheit'] } },
        type: 'object',
        properties: { unit: { $ref: '#/$defs/unit' }, email: { type: 'string', format: 'email' } },
        additionalProperties: false,
      },
      'x',
    )
    const value = { unit: 'celsius', email: 'a@b.co' }
    const ok = compiled.validate(value)
    expect(ok).toEqual({ ok: true, value })
    if (ok.ok) expect(ok.value).toBe(value)
    const bad = compiled.validate({ unit: 'kelvin', email: 'nope', extra: 1 })
    expect(bad.ok).toBe(false)
    if (!bad.ok) {
      // Wrapper errors ("a property failed") are dropped: only what is wrong, where.
      expect(bad.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining([['unit'], ['email']]))
      expect(bad.issues.every((issue) => !/^Property .* does not match schema/.test(issue.message))).toBe(true)
    }
  })

  it('decodes JSON Pointer escapes in JSON Schema issue paths', () => {
    const compiled = compileSchema({ type: 'object', properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'string' } } }, 'x')
    const result = compiled.validate({ 'a/b': 1, 'c~d': 2 })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining([['a/b'], ['c~d']]))
  })

  it('computes the JSON Schema once: the same object on every read', () => {
    const compiled = compileSchema(z.object({ a: z.string() }), 'x')
    const first = compiled.jsonSchema
    compiled.validate({ a: 'x' })
    expect(compiled.jsonSchema).toBe(first)
    const plain = { type: 'object' }
    expect(compileSchema(plain, 'x').jsonSchema).toBe(plain)
  })

  it('accepts a Standard Schema without Standard JSON Schema: its own validation, described as {}', () => {
    const compiled = compileSchema(v.object({ a: v.string() }) as never, 'inputSchema of tool "t"')
    expect(compiled.describable).toBe(false)
    expect(compiled.jsonSchema).toEqual({})
    expect(compiled.outputJsonSchema).toEqual({})
    expect(compiled.validate({ a: 'x' })).toEqual({ ok: true, value: { a: 'x' } })
    expect(compiled.validate({ a: 1 })).toMatchObject({ ok: false, issues: [{ path: ['a'], message: expect.any(String) }] })
    const handWritten = { '~standard': { version: 1, vendor: 'mine', validate: (value: unknown) => (value === 'yes' ? { value } : { issues: [{ message: 'say yes' }] }) } }
    expect(compileSchema(handWritten as never, 'x').validate('no')).toEqual({ ok: false, issues: [{ path: [], message: 'say yes' }] })
    expect(compileSchema(z.string(), 'x').describable).toBe(true)
    expect(compileSchema({ type: 'string' }, 'x').describable).toBe(true)
  })

  it('refuses what is not a schema, naming it', () => {
    expect(() => compileSchema('string' as never, 'outputSchema of tool "t"')).toThrow(/outputSchema of tool "t" must be/)
    expect(() => compileSchema([] as never, 'outputSchema of tool "t"')).toThrow(/outputSchema of tool "t" must be/)
  })

  it('refuses an asynchronous schema when it validates, naming it', () => {
    const compiled = compileSchema(z.object({ a: z.string().refine(async () => true) }), 'inputSchema of tool "t"')
    expect(() => compiled.validate({ a: 'x' })).toThrow(/inputSchema of tool "t" is asynchronous/)
  })
})

describe('isStandardSchema / toIssuePath', () => {
  it('tells Standard Schemas from JSON Schema objects', () => {
    expect(isStandardSchema(z.string())).toBe(true)
    expect(isStandardSchema(type('string'))).toBe(true)
    expect(isStandardSchema({ type: 'string' })).toBe(false)
    expect(isStandardSchema(null)).toBe(false)
    expect(isStandardSchema({ '~standard': {} })).toBe(false)
  })

  it('turns { key } segments and symbols into plain keys', () => {
    expect(toIssuePath(undefined)).toEqual([])
    expect(toIssuePath([{ key: 'a' }, 0, { key: 1 }, Symbol.for('s')])).toEqual(['a', 0, 1, 'Symbol(s)'])
  })
})

describe('JSON Schema of a Standard Schema, computed when first read', () => {
  it('does not convert at definition: only reading jsonSchema does, once', async () => {
    const { z } = await import('zod')
    const schema = z.object({ name: z.string() })
    let conversions = 0
    const standard = schema['~standard'] as unknown as { jsonSchema: { input: (options: unknown) => unknown } }
    const input = standard.jsonSchema.input.bind(standard.jsonSchema)
    standard.jsonSchema.input = (options) => (conversions++, input(options))
    const compiled = compileSchema(schema, 'inputSchema')
    expect(compiled.describable).toBe(true)
    expect(compiled.validate({ name: 'Ada' })).toEqual({ ok: true, value: { name: 'Ada' } })
    expect(conversions).toBe(0)
    expect(compiled.jsonSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } } })
    expect(compiled.jsonSchema).toBe(compiled.jsonSchema)
    expect(conversions).toBe(1)
  })
})

describe('plain JSON Schema: compiled by the registered validator, on first validate', () => {
  afterEach(() => setJsonSchemaValidator(cfworkerJsonSchema))
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }

  it('compiles nothing at definition, and once, at the first validate, with the validator registered then', () => {
    const compiled: string[] = []
    const counting: JsonSchemaValidator = (source) => (compiled.push(JSON.stringify(source)), cfworkerJsonSchema(source))
    setJsonSchemaValidator(counting)
    const plain = compileSchema(schema, 'inputSchema of tool "t"')
    expect(compiled).toEqual([])
    expect(plain.validate({ n: 1 })).toEqual({ ok: true, value: { n: 1 } })
    expect(plain.validate({ n: 'one' })).toEqual({ ok: false, issues: [{ path: ['n'], message: expect.any(String) }] })
    expect(compiled).toEqual([JSON.stringify(schema)])
  })

  it('without a validator, is still defined and listed, but each check fails with EXECUTION_FAILED saying what to pass (logged once); never skipped', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    setJsonSchemaValidator(undefined)
    expect(jsonSchemaValidator()).toBeUndefined()
    const plain = compileSchema(schema, 'inputSchema of tool "t"')
    expect(plain.jsonSchema).toBe(schema)
    expect(plain.describable).toBe(true)
    for (const value of [{ n: 1 }, { n: 'one' }]) {
      let thrown: unknown
      try {
        plain.validate(value)
      } catch (error) {
        thrown = error
      }
      expect(ToolrouteError.isInstance(thrown)).toBe(true)
      expect(thrown).toMatchObject({ code: 'EXECUTION_FAILED', message: expect.stringContaining('inputSchema of tool "t" is a plain JSON Schema, and no JSON Schema validator is registered') })
      expect((thrown as Error).message).toContain('`jsonSchema: workerJsonSchema` (from toolroute/workers) to createWorker')
    }
    expect(logged.mock.calls.map(([message]) => String(message))).toEqual([expect.stringMatching(/^toolroute: inputSchema of tool "t" is a plain JSON Schema, and no JSON Schema validator/)])
    logged.mockRestore()
    // Registered later (a failed check is not kept): the next check runs.
    setJsonSchemaValidator(cfworkerJsonSchema)
    expect(plain.validate({ n: 'one' }).ok).toBe(false)
    expect(plain.validate({ n: 2 })).toEqual({ ok: true, value: { n: 2 } })
  })

  it('a Standard Schema never needs one', () => {
    setJsonSchemaValidator(undefined)
    expect(compileSchema(z.object({ n: z.number() }), 'x').validate({ n: 'one' }).ok).toBe(false)
  })
})
