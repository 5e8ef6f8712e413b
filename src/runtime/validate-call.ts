import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { ErrorCode, ValidationIssue } from '../protocol/error-codes.ts'
import type { CompiledSchema } from '../schema/compile-schema.ts'
import { describeIssues } from '../schema/format-validation-errors.ts'
import { validateWithRepairs } from '../schema/validate-with-repairs.ts'

export type Checked<T> = { ok: true; value: T } | { ok: false; error: ToolrouteError }

/**
 * A failed validation whose `ToolrouteError` is built on first read of `error`: an Error's stack
 * is most of a failing call's cost, and a direct call never needs one.
 */
class ValidationFailure {
  readonly ok = false as const
  readonly code: ErrorCode
  /** What the wire carries (HTTP, SSE, MCP): the issues, never the value that failed (schema/safe-issues.ts). */
  readonly message: string
  readonly issues: ValidationIssue[]
  /** The failing value, previewed, for a direct call's message only (as Mastra's shows it). */
  readonly shown: string | undefined
  #error: ToolrouteError | undefined

  constructor(code: ErrorCode, message: string, issues: ValidationIssue[], shown?: string) {
    this.code = code
    this.message = message
    this.issues = issues
    this.shown = shown
  }

  get error(): ToolrouteError {
    return (this.#error ??= new ToolrouteError(this.code, this.message, { issues: this.issues }))
  }
}

/** The message and issues of a failed check, without building an Error when there is none yet. */
export function failureDetails(failure: { ok: false; error: ToolrouteError }): { message: string; issues?: ValidationIssue[] } {
  return failure instanceof ValidationFailure ? failure : failure.error
}

/**
 * The same for a direct `tool.execute()`, whose message also shows the value that failed, as
 * Mastra's does: HTTP, SSE and MCP messages reach views and logs, where raw input never may.
 */
export function directFailureDetails(failure: { ok: false; error: ToolrouteError }): { message: string; issues?: ValidationIssue[] } {
  if (!(failure instanceof ValidationFailure)) return failure.error
  return failure.shown === undefined ? failure : { message: `${failure.message}\n\n${failure.shown}`, issues: failure.issues }
}

/** A value as error messages show it: pretty JSON cut at `limit` characters, as Mastra's `truncateForLogging`. */
export function preview(value: unknown, limit = 200): string {
  try {
    const text = JSON.stringify(value, null, 2) ?? 'undefined'
    return text.length <= limit ? text : `${text.slice(0, limit)}... (truncated)`
  } catch {
    return '[Unable to serialize data]'
  }
}

/**
 * A check against one of a tool's schemas: with `repair`, models' habits are repaired first
 * (`validateWithRepairs`); `show` is how a direct call's message shows the value that failed.
 */
function checkAgainst(code: ErrorCode, what: string, repair: boolean, show?: (value: unknown) => string, advice = 'Please fix the following errors and try again') {
  return (toolId: string, schema: CompiledSchema | undefined, value: unknown): Checked<unknown> => {
    if (!schema) return { ok: true, value }
    const result = repair ? validateWithRepairs(schema, value) : schema.validate(value)
    if (result.ok) return result
    const message = `${what} validation failed for ${toolId}. ${advice}:\n${describeIssues(result.issues)}`
    return new ValidationFailure(code, message, result.issues, show?.(value))
  }
}

const shown = (label: string) => (value: unknown) => `${label}: ${preview(value)}`

/** Input against `inputSchema`; a `null` for an optional field counts as absent. */
export const checkInput = checkAgainst('INPUT_VALIDATION_FAILED', 'Tool input', true, shown('Provided arguments'))

/** `resumeData` against `resumeSchema`. */
export const checkResumeData = checkAgainst('RESUME_VALIDATION_FAILED', 'Tool resume data', true, shown('Provided resume data'))

/** A `suspend()` payload against `suspendSchema`. */
export const checkSuspendPayload = checkAgainst('SUSPEND_VALIDATION_FAILED', 'Tool suspension data', false, shown('Provided payload'))

/** Output against `outputSchema`. */
export const checkOutput = checkAgainst('OUTPUT_VALIDATION_FAILED', 'Tool output', false, undefined, 'The tool returned invalid output')

const secretKeyPattern = /password|secret|token|api_?key|auth|credential/i

/** A copy with the values of secret-looking keys replaced, so they never reach an error message. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, secretKeyPattern.test(key) ? '[REDACTED]' : redactSecrets(item)]),
  )
}

const checkContext = checkAgainst('REQUEST_CONTEXT_VALIDATION_FAILED', 'Request context', false, (values) => `Provided request context: ${preview(redactSecrets(values))}`)

/** Request context against `requestContextSchema` (what it parses to, `{}` when nothing); the direct call's preview of it hides secret-looking keys. */
export function checkRequestContext(toolId: string, schema: CompiledSchema | undefined, values: Record<string, unknown>): Checked<Record<string, unknown>> {
  const checked = checkContext(toolId, schema, values)
  return checked.ok && checked.value == null ? { ok: true, value: {} } : (checked as Checked<Record<string, unknown>>)
}
