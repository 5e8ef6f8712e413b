import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { compileSchema } from '../schema/compile-schema.ts'
import { checkInput, checkOutput, checkRequestContext, checkResumeData, checkSuspendPayload, redactSecrets } from './validate-call.ts'

const schema = compileSchema(z.object({ n: z.number() }), 'x')

describe('validate-call', () => {
  it.each([
    ['checkInput', checkInput, 'INPUT_VALIDATION_FAILED', /^Tool input validation failed for t\./],
    ['checkResumeData', checkResumeData, 'RESUME_VALIDATION_FAILED', /^Tool resume data validation failed for t\./],
    ['checkSuspendPayload', checkSuspendPayload, 'SUSPEND_VALIDATION_FAILED', /^Tool suspension data validation failed for t\./],
    ['checkOutput', checkOutput, 'OUTPUT_VALIDATION_FAILED', /^Tool output validation failed for t\./],
  ] as const)('%s fails with its spec code, message and issues', (_name, check, code, message) => {
    const result = check('t', schema, { n: 'x' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe(code)
    expect(result.error.message).toMatch(message)
    expect(result.error.issues).toEqual([{ path: ['n'], message: expect.any(String) }])
  })

  it.each([checkInput, checkResumeData, checkSuspendPayload, checkOutput])('passes anything through without a schema', (check) => {
    const value = { any: 'thing' }
    expect(check('t', undefined, value)).toEqual({ ok: true, value })
  })

  it('only input and resume data get the null-for-optional retry (suspend payload and output are ours, not a model\'s)', () => {
    const optional = compileSchema(z.object({ a: z.string().optional() }), 'x')
    expect(checkInput('t', optional, { a: null }).ok).toBe(true)
    expect(checkResumeData('t', optional, { a: null }).ok).toBe(true)
    expect(checkSuspendPayload('t', optional, { a: null }).ok).toBe(false)
    expect(checkOutput('t', optional, { a: null }).ok).toBe(false)
  })

  it('checkRequestContext returns the parsed values; its message says what was expected', () => {
    const contextSchema = compileSchema(z.object({ userId: z.string(), token: z.literal('expected') }), 'x')
    expect(checkRequestContext('t', contextSchema, { userId: 'u', token: 'expected', extra: 1 })).toEqual({ ok: true, value: { userId: 'u', token: 'expected' } })
    const failed = checkRequestContext('t', contextSchema, { userId: 'u', token: 'tok_SECRET' })
    expect(failed.ok).toBe(false)
    if (failed.ok) return
    expect(failed.error.code).toBe('REQUEST_CONTEXT_VALIDATION_FAILED')
    expect(failed.error.message).not.toContain('tok_SECRET')
    expect(failed.error.issues).toEqual([{ path: ['token'], message: 'Invalid input: expected "expected"' }])
  })
})

describe('redactSecrets', () => {
  it('replaces the values of password/secret/token/apiKey/auth/credential keys, at any depth, any case', () => {
    expect(
      redactSecrets({
        user: 'ada',
        Password: 'p',
        clientSecret: 's',
        refresh_token: 't',
        API_KEY: 'k',
        apikey: 'k2',
        Authorization: 'Bearer x',
        credentials: { user: 'u' },
        nested: [{ sessionToken: 'n', keep: 1 }],
      }),
    ).toEqual({
      user: 'ada',
      Password: '[REDACTED]',
      clientSecret: '[REDACTED]',
      refresh_token: '[REDACTED]',
      API_KEY: '[REDACTED]',
      apikey: '[REDACTED]',
      Authorization: '[REDACTED]',
      credentials: '[REDACTED]',
      nested: [{ sessionToken: '[REDACTED]', keep: 1 }],
    })
  })

  it('leaves other values alone', () => {
    expect(redactSecrets('plain')).toBe('plain')
    expect(redactSecrets(null)).toBe(null)
    expect(redactSecrets([1, { a: 2 }])).toEqual([1, { a: 2 }])
  })
})
