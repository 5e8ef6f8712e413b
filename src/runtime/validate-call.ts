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
export class ValidationFailure {
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

function fail(code: ErrorCode, what: string, toolId: string, issues: ValidationIssue[], shown: string): ValidationFailure {
  const message = `${what} validation failed for ${toolId}. Please fix the following errors and try again:\n${describeIssues(issues)}`
  return new ValidationFailure(code, message, issues, shown)
}

/** A check against one of a tool's schemas; with `repair`, models' habits are repaired first (`validateWithRepairs`). */
function checkAgainst(code: ErrorCode, what: string, shownAs: string, repair: boolean) {
  return (toolId: string, schema: CompiledSchema | undefined, value: unknown): Checked<unknown> => {
    if (!schema) return { ok: true, value }
    const result = repair ? validateWithRepairs(schema, value) : schema.validate(value)
    return result.ok ? result : fail(code, what, toolId, result.issues, `${shownAs}: ${preview(value)}`)
  }
}

/** Input against `inputSchema`; a `null` for an optional field counts as absent. */
export const checkInput = checkAgainst('INPUT_VALIDATION_FAILED', 'Tool input', 'Provided arguments', true)

/** `resumeData` against `resumeSchema`. */
export const checkResumeData = checkAgainst('RESUME_VALIDATION_FAILED', 'Tool resume data', 'Provided resume data', true)

/** A `suspend()` payload against `suspendSchema`. */
export const checkSuspendPayload = checkAgainst('SUSPEND_VALIDATION_FAILED', 'Tool suspension data', 'Provided payload', false)

/** Output against `outputSchema`. */
export function checkOutput(toolId: string, schema: CompiledSchema | undefined, output: unknown): Checked<unknown> {
  if (!schema) return { ok: true, value: output }
  const result = schema.validate(output)
  if (result.ok) return result
  const { issues } = result
  const message = `Tool output validation failed for ${toolId}. The tool returned invalid output:\n${describeIssues(issues)}`
  return new ValidationFailure('OUTPUT_VALIDATION_FAILED', message, issues)
}

const secretKeyPattern = /password|secret|token|api_?key|auth|credential/i

/** A copy with the values of secret-looking keys replaced, so they never reach an error message. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, secretKeyPattern.test(key) ? '[REDACTED]' : redactSecrets(item)]),
  )
}

/** Request context against `requestContextSchema`; the direct call's preview of it hides secret-looking keys. */
export function checkRequestContext(
  toolId: string,
  schema: CompiledSchema | undefined,
  values: Record<string, unknown>,
): Checked<Record<string, unknown>> {
  if (!schema) return { ok: true, value: values }
  const result = schema.validate(values)
  if (result.ok) return { ok: true, value: (result.value ?? {}) as Record<string, unknown> }
  const shown = `Provided request context: ${preview(redactSecrets(values))}`
  return fail('REQUEST_CONTEXT_VALIDATION_FAILED', 'Request context', toolId, result.issues, shown)
}
