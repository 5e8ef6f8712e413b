import { describe, expect, it } from 'vitest'
import { describeIssues, formatValidationErrors, isValidationError } from './format-validation-errors.ts'

describe('formatValidationErrors', () => {
  it("builds Mastra's nested { errors, fields } shape", () => {
    const formatted = formatValidationErrors([
      { path: [], message: 'Unrecognized key: "x"' },
      { path: ['location'], message: 'Required' },
      { path: ['stops', 1, 'city'], message: 'Expected string' },
      { path: ['stops', 1, 'city'], message: 'Too short' },
    ])
    expect(formatted).toEqual({
      errors: ['Unrecognized key: "x"'],
      fields: {
        location: { errors: ['Required'], fields: {} },
        stops: { errors: [], fields: { 1: { errors: [], fields: { city: { errors: ['Expected string', 'Too short'], fields: {} } } } } },
      },
    })
  })

  it('is empty for no issues', () => {
    expect(formatValidationErrors([])).toEqual({ errors: [], fields: {} })
  })
})

describe('describeIssues', () => {
  it('prints one "- path: message" line per issue, "root" for the value itself', () => {
    expect(describeIssues([{ path: ['a', 0], message: 'bad' }, { path: [], message: 'worse' }])).toBe('- a.0: bad\n- root: worse')
  })
})

describe('isValidationError', () => {
  it('recognises the direct-call failure shape only', () => {
    expect(isValidationError({ error: true, message: 'x', validationErrors: { errors: [], fields: {} } })).toBe(true)
    expect(isValidationError({ error: true, message: 'x' })).toBe(false)
    expect(isValidationError({ error: 'yes', validationErrors: {} })).toBe(false)
    expect(isValidationError(null)).toBe(false)
    expect(isValidationError('error')).toBe(false)
  })
})

describe('formatValidationErrors with prototype keys', () => {
  it('nests __proto__ and constructor as own fields, without touching Object.prototype (found by the hardening suite)', () => {
    const formatted = formatValidationErrors([
      { path: ['__proto__'], message: 'not allowed' },
      { path: ['constructor', 'prototype'], message: 'nope' },
    ])
    expect(Object.hasOwn(formatted.fields, '__proto__')).toBe(true)
    expect(JSON.parse(JSON.stringify(formatted))).toEqual(JSON.parse('{"errors":[],"fields":{"__proto__":{"errors":["not allowed"],"fields":{}},"constructor":{"errors":[],"fields":{"prototype":{"errors":["nope"],"fields":{}}}}}}'))
    expect(({} as Record<string, unknown>).errors).toBeUndefined()
  })
})
