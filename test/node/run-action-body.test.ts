// The decline and resume bodies are checked by hand (src/http/check-run-action-body.ts) so a Worker
// whose tools use another schema library bundles no Zod. Those routes used to answer with a classic
// Zod schema's issues: for any JSON body, the hand-written check answers exactly what Zod did.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ToolrouteError } from '../../src/errors/toolroute-error.ts'
import { checkRunActionBody, missingResumeData } from '../../src/http/check-run-action-body.ts'
import { assertProperty, propertyTimeout } from '../fixtures/property-seeds.ts'

const schemas = {
  decline: z.object({ reason: z.string().max(10_000).optional() }).loose(),
  resume: z.object({ resumeData: z.unknown() }).loose(),
}
const codes = { decline: 'INPUT_VALIDATION_FAILED', resume: 'RESUME_VALIDATION_FAILED' } as const

/** What the route answered with Zod: the hook of the old create-tool-app.ts, verbatim. */
function zodAnswer(action: 'decline' | 'resume', body: unknown) {
  const result = schemas[action].safeParse(body)
  if (result.success) return { ok: action === 'decline' ? { reason: (result.data as { reason?: string }).reason } : { resumeData: (result.data as { resumeData: unknown }).resumeData } }
  // Zod's words but one: a resume body without `resumeData` names the wrapper (issue #49).
  const messageOf = (issue: z.core.$ZodIssue) => (action === 'resume' && issue.path.join('.') === 'resumeData' ? missingResumeData : issue.message)
  const issues = result.error.issues.map((issue) => ({ path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))), message: messageOf(issue) }))
  return { error: new ToolrouteError(codes[action], `Invalid request body: ${issues.map((issue) => `${issue.path.join('.') || 'root'}: ${issue.message}`).join('; ')}`, { issues }).toJSON() }
}

function handAnswer(action: 'decline' | 'resume', body: unknown) {
  try {
    const value = checkRunActionBody(action, body) as { reason?: string; resumeData?: unknown }
    return { ok: action === 'decline' ? { reason: value.reason } : { resumeData: value.resumeData } }
  } catch (error) {
    if (!ToolrouteError.isInstance(error)) throw error
    return { error: error.toJSON() }
  }
}

const reasons = fc.oneof(fc.string(), fc.string({ minLength: 9_990, maxLength: 10_010 }), fc.jsonValue())
const bodies = fc.oneof(
  fc.jsonValue(),
  fc.record({ reason: reasons, resumeData: fc.jsonValue(), other: fc.jsonValue() }, { requiredKeys: [] }),
)

describe('decline and resume bodies, checked by hand', () => {
  it.each(['decline', 'resume'] as const)('%s: any JSON body gets what the Zod schema answered', async (action) => {
    await assertProperty(
      'runActionBody',
      fc.property(bodies, (body) => {
        expect(handAnswer(action, body)).toEqual(zodAnswer(action, body))
      }),
      { numRuns: 1_000 },
    )
  }, propertyTimeout)

  it.each([
    ['decline', null, 'Invalid request body: root: Invalid input: expected object, received null'],
    ['decline', [], 'Invalid request body: root: Invalid input: expected object, received array'],
    ['decline', { reason: 7 }, 'Invalid request body: reason: Invalid input: expected string, received number'],
    ['decline', { reason: 'x'.repeat(10_001) }, 'Invalid request body: reason: Too big: expected string to have <=10000 characters'],
    ['resume', {}, 'Invalid request body: resumeData: Required: the body is { "resumeData": <data matching the run\'s resumeSchema> }'],
    ['resume', { approved: true }, 'Invalid request body: resumeData: Required: the body is { "resumeData": <data matching the run\'s resumeSchema> }'],
    ['resume', 'data', 'Invalid request body: root: Invalid input: expected object, received string'],
  ] as const)('%s %j: %s', (action, body, message) => {
    expect(handAnswer(action, body)).toEqual(zodAnswer(action, body))
    expect(handAnswer(action, body).error?.error.message).toBe(message)
  })

  it('keeps what the routes read and ignores other fields', () => {
    expect(checkRunActionBody('decline', { reason: 'not today', extra: 1 })).toEqual({ reason: 'not today' })
    expect(checkRunActionBody('decline', {})).toEqual({})
    expect(checkRunActionBody('resume', { resumeData: null })).toEqual({ resumeData: null })
  })
})
