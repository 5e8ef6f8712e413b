import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'

const base = { id: 'my-tool', description: 'Does a thing', inputSchema: z.object({}) }
// Definition errors are the point here, so options go in untyped.
const define = (options: Record<string, unknown>) => () => createTool(options as never)

describe('createTool() fails at definition, naming the tool', () => {
  it.each([
    ['an empty id', ''],
    ['an id over 128 characters', 'a'.repeat(129)],
  ])('%s', (_case, id) => {
    expect(define({ ...base, id })).toThrow(TypeError)
    expect(define({ ...base, id })).toThrow(`Tool ${JSON.stringify(id)}: id must be a non-empty string of at most 128 characters`)
  })

  it('accepts any other string, as Mastra does: spaces, dots, slashes, any script, up to 128 characters', () => {
    for (const id of ['a', 'weather-tool', 'Lookup order', 'orders.lookup', 'tools/x', 'météo', ' ', 'a'.repeat(128)]) {
      expect(define({ ...base, id })).not.toThrow()
    }
  })

  it.each(['.', '..'])('an id whose route can never match: %s (a URL dot segment)', (id) => {
    expect(define({ ...base, id })).toThrow(`Tool ${JSON.stringify(id)}: id ${JSON.stringify(id)} can never be called: its route /tools/${id} is a URL dot segment`)
    // Only the whole id: `...`, `.a` or `a..` route like any other.
    for (const other of ['...', `${id}a`, `a${id}`]) expect(define({ ...base, id: other })).not.toThrow()
  })

  it('a missing or non-string id', () => {
    expect(define({ ...base, id: undefined })).toThrow(/^createTool\(\): id must be a non-empty string of at most 128 characters, got undefined$/)
    expect(define({ ...base, id: 42 })).toThrow(/got 42$/)
  })

  it('no options object at all', () => {
    expect(() => createTool(undefined as never)).toThrow('createTool() needs an options object')
    expect(() => createTool(null as never)).toThrow('createTool() needs an options object')
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['not a string', 7],
  ])('a description that is %s', (_case, description) => {
    expect(define({ ...base, description })).toThrow('Tool "my-tool": description must be a non-empty string')
  })

  it.each(['execute', 'toModelOutput', 'onInputStart', 'onInputDelta', 'onInputAvailable', 'onOutput'])('%s that is not a function', (key) => {
    expect(define({ ...base, [key]: 'nope' })).toThrow(`Tool "my-tool": ${key} must be a function`)
    expect(define({ ...base, [key]: {} })).toThrow(`Tool "my-tool": ${key} must be a function`)
  })

  it.each(['inputSchema', 'outputSchema', 'suspendSchema', 'resumeSchema', 'requestContextSchema'])('%s that is not a schema', (key) => {
    for (const schema of ['string', 42, [], null, true]) {
      expect(define({ ...base, [key]: schema })).toThrow(`Tool "my-tool": ${key} must be a schema (Zod, ArkType, Valibot or a JSON Schema object)`)
    }
  })

  it('accepts a Valibot schema not wrapped in toStandardJsonSchema: it validates, and is described as {}', async () => {
    const tool = createTool({ ...base, inputSchema: v.object({ a: v.string() }), execute: async ({ a }) => a })
    expect(tool.schemas.input).toMatchObject({ jsonSchema: {}, describable: false })
    expect(await tool.execute({ a: 'x' })).toBe('x')
    expect(await tool.execute({ a: 1 } as never)).toMatchObject({ error: true, validationErrors: { fields: { a: { errors: [expect.any(String)] } } } })
  })

  it('requireApproval that is neither a boolean nor a function', () => {
    expect(define({ ...base, requireApproval: 'yes' })).toThrow('Tool "my-tool": requireApproval must be a boolean or a function')
    expect(define({ ...base, requireApproval: 1 })).toThrow('requireApproval must be a boolean or a function')
    expect(define({ ...base, requireApproval: true })).not.toThrow()
    expect(define({ ...base, requireApproval: () => false })).not.toThrow()
  })

  it('strict that is not a boolean', () => {
    expect(define({ ...base, strict: 'true' })).toThrow('Tool "my-tool": strict must be a boolean')
  })

  it('outputValidation other than "error" or "warn"', () => {
    expect(define({ ...base, outputValidation: 'ignore' })).toThrow('Tool "my-tool": outputValidation must be "error" or "warn"')
    expect(define({ ...base, outputValidation: 'warn' })).not.toThrow()
    expect(define({ ...base, outputValidation: 'error' })).not.toThrow()
  })

  it('transform for an audience that is not a view', () => {
    expect(define({ ...base, transform: { raw: { input: () => ({}) } } })).toThrow('Tool "my-tool": transform.raw is not a view (display, transcript)')
  })

  it('transform for a phase that does not exist', () => {
    expect(define({ ...base, transform: { display: { inputs: () => ({}) } } })).toThrow(
      'Tool "my-tool": transform.display.inputs is not a phase (input, inputDelta, output, error, approval, suspend, resume)',
    )
  })

  it('transform whose phase is not a function', () => {
    expect(define({ ...base, transform: { transcript: { output: 'hidden' } } })).toThrow('Tool "my-tool": transform.transcript.output must be a function')
  })

  it.each([
    ['not an object', true, 'background must be an object'],
    ['a negative timeoutMs', { enabled: true, timeoutMs: -1 }, 'background.timeoutMs must be a non-negative number'],
    ['an infinite timeoutMs', { enabled: true, timeoutMs: Infinity }, 'background.timeoutMs must be a non-negative number'],
    ['a string maxRetries', { enabled: true, maxRetries: '3' }, 'background.maxRetries must be a non-negative number'],
    ['a NaN maxRetries', { enabled: true, maxRetries: Number.NaN }, 'background.maxRetries must be a non-negative number'],
  ])('background that is %s', (_case, background, message) => {
    expect(define({ ...base, background })).toThrow(`Tool "my-tool": ${message}`)
  })

  it.each([
    ['not an array', { input: {} }],
    ['an item without input', [{ example: {} }]],
    ['an item whose input is not an object', [{ input: 'Lisbon' }]],
  ])('inputExamples that is %s', (_case, inputExamples) => {
    expect(define({ ...base, inputExamples })).toThrow('Tool "my-tool": inputExamples must be an array of { input: object }')
  })

  it('mcp or providerOptions that are not objects', () => {
    expect(define({ ...base, mcp: 'readonly' })).toThrow('Tool "my-tool": mcp must be an object ({ annotations, _meta })')
    expect(define({ ...base, providerOptions: null })).toThrow('Tool "my-tool": providerOptions must be an object keyed by provider')
  })

  it('mcp.taskSupport other than "optional" or "required", or "required" on a tool that does not run in the background', () => {
    expect(define({ ...base, mcp: { taskSupport: 'always' } })).toThrow('Tool "my-tool": mcp.taskSupport must be "optional" or "required"')
    expect(define({ ...base, mcp: { taskSupport: 'required' } })).toThrow('Tool "my-tool": mcp.taskSupport "required" needs a background tool (background: { enabled: true })')
    expect(define({ ...base, mcp: { taskSupport: 'required' }, background: { enabled: true } })).not.toThrow()
    expect(define({ ...base, mcp: { askBeforeTask: 'yes' } })).toThrow('Tool "my-tool": mcp.askBeforeTask must be a boolean')
    expect(define({ ...base, mcp: { askBeforeTask: true } })).toThrow('Tool "my-tool": mcp.askBeforeTask needs a background tool (background: { enabled: true })')
    expect(define({ ...base, mcp: { askBeforeTask: true }, background: { enabled: true } })).not.toThrow()
  })
})
