/**
 * The error codes of SPEC §2, each with the HTTP status it answers with: the one table the
 * server answers from and the client reads. An unknown route answers `TOOL_NOT_FOUND` (404).
 */
export const errorStatus = {
  TOOL_NOT_FOUND: 404,
  REQUEST_CONTEXT_VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  INPUT_VALIDATION_FAILED: 400,
  RESUME_VALIDATION_FAILED: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  UNAUTHORIZED: 401,
  /** A foreign `Host` on a locally served app, a run action or `/mcp` from an `Origin` not allowed (§5, §12). */
  FORBIDDEN: 403,
  INSUFFICIENT_SCOPE: 403, // the OAuth token lacks a scope the tool needs (§15)
  METHOD_NOT_ALLOWED: 405, // a known path, a method it does not serve; the answer carries `Allow`
  INVALID_HEADER: 400, // an `x-tool-call-id` over 128 characters or outside visible ASCII
  RUN_NOT_FOUND: 404,
  RUN_STATE_CONFLICT: 409,
  RUN_EXPIRED: 410,
  OUTPUT_VALIDATION_FAILED: 500,
  SUSPEND_VALIDATION_FAILED: 500,
  EXECUTION_FAILED: 500,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_CONFLICT: 409,
  BUILD_FAILED: 503, // a tool module that does not build (§7, `toolroute dev`) or load (Deno's `loadTools`)
  /** An `Idempotency-Key` that is empty or over 255 characters. */
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

/** Whether a string is one of the spec's error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value)
}
