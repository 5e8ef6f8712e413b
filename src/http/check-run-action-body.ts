import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { ValidationIssue } from '../protocol/error-codes.ts'

/** The JSON body of `POST /runs/:runId/approve`, `/decline` or `/resume`, once checked. */
export type RunActionBody<A extends 'approve' | 'decline' | 'resume'> = A extends 'approve' ? { approvalId?: string } : A extends 'decline' ? { reason?: string } : { resumeData: unknown }

/** A declined run's reason is kept with the run: this many UTF-16 units at most. */
const maxReasonLength = 10_000

// Zod's words for what it received, so these hand checks answer as a Zod schema would without
// bundling Zod (test/node/run-action-body.test.ts holds the two to the same answers).
const received = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)

/** The one answer that is not Zod's: a body without the wrapper says what the wrapper is. */
export const missingResumeData = 'Required: the body is { "resumeData": <data matching the run\'s resumeSchema> }'

/**
 * Checks a parsed approve body (none, or an optional string `approvalId`: an empty one is none),
 * decline body (optional string `reason`) or resume body (`resumeData` present); other fields ignored.
 */
export function checkRunActionBody<A extends 'approve' | 'decline' | 'resume'>(action: A, body: unknown): RunActionBody<A> {
  const code = action === 'resume' ? 'RESUME_VALIDATION_FAILED' : 'INPUT_VALIDATION_FAILED'
  const fail = (issue: ValidationIssue): never => {
    throw new ToolrouteError(code, `Invalid request body: ${issue.path.join('.') || 'root'}: ${issue.message}`, { issues: [issue] })
  }
  if (action === 'approve') {
    // A body that is not an object (or none) was always read as no approval id.
    const approvalId = received(body) === 'object' ? (body as { approvalId?: unknown }).approvalId : undefined
    if (approvalId !== undefined && typeof approvalId !== 'string') fail({ path: ['approvalId'], message: `Invalid input: expected string, received ${received(approvalId)}` })
    return (approvalId ? { approvalId } : {}) as RunActionBody<A>
  }
  if (received(body) !== 'object') return fail({ path: [], message: `Invalid input: expected object, received ${received(body)}` })
  const fields = body as Record<string, unknown>
  if (action === 'resume') {
    if (fields.resumeData === undefined) return fail({ path: ['resumeData'], message: missingResumeData })
    return { resumeData: fields.resumeData } as RunActionBody<A>
  }
  const { reason } = fields
  if (reason === undefined) return {} as RunActionBody<A>
  if (typeof reason !== 'string') return fail({ path: ['reason'], message: `Invalid input: expected string, received ${received(reason)}` })
  if (reason.length > maxReasonLength) return fail({ path: ['reason'], message: `Too big: expected string to have <=${maxReasonLength} characters` })
  return { reason } as RunActionBody<A>
}
