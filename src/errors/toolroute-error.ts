/** The error codes of SPEC §2, each with the HTTP status it answers with. */
export const errorStatus = {
  TOOL_NOT_FOUND: 404,
  REQUEST_CONTEXT_VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  INPUT_VALIDATION_FAILED: 400,
  RESUME_VALIDATION_FAILED: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  UNAUTHORIZED: 401,
  RUN_NOT_FOUND: 404,
  RUN_STATE_CONFLICT: 409,
  RUN_EXPIRED: 410,
  OUTPUT_VALIDATION_FAILED: 500,
  SUSPEND_VALIDATION_FAILED: 500,
  EXECUTION_FAILED: 500,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_CONFLICT: 409,
  /** Not in SPEC §2's table, which is silent on a malformed key: empty, or over 255 characters. */
  IDEMPOTENCY_KEY_INVALID: 400,
} as const

export type ErrorCode = keyof typeof errorStatus

/** One validation problem: where (a path into the value) and what. */
export interface ValidationIssue {
  path: (string | number)[]
  message: string
}

/** The wire form of every error: `{ error: { code, message, issues? } }`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; issues?: ValidationIssue[] }
}

const marker = Symbol.for('toolroute.error')

/**
 * The one error class of toolroute. It carries a spec `code`; each surface (HTTP, SSE, MCP,
 * client) maps it to the wire in one place. `isInstance` works across bundle copies.
 */
export class ToolrouteError extends Error {
  readonly [marker] = true
  readonly code: ErrorCode
  readonly issues?: ValidationIssue[]

  constructor(code: ErrorCode, message: string, options?: { issues?: ValidationIssue[]; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ToolrouteError'
    this.code = code
    if (options?.issues) this.issues = options.issues
  }

  /** The HTTP status this error answers with. */
  get status(): (typeof errorStatus)[ErrorCode] {
    return errorStatus[this.code]
  }

  static isInstance(error: unknown): error is ToolrouteError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true
  }

  toJSON(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) } }
  }
}

/** Whether a string is one of the spec's error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value)
}

/** The message of anything thrown, never its stack. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}
