import { isErrorCode, type ErrorCode, type ValidationIssue } from '../protocol/error-codes.ts'
import { headerNames } from '../protocol/header-names.ts'

/**
 * What went wrong, as the client sees it: one of the spec's codes when the server answered with
 * one (an unknown route is toolroute's `TOOL_NOT_FOUND`), else `UNEXPECTED_RESPONSE` (an answer
 * that is not toolroute's: a proxy's 502, a base URL that reaches another server) or
 * `CONNECTION_LOST` (the network failed, or a stream broke and could not be resumed).
 */
export type ToolClientErrorCode = ErrorCode | 'UNEXPECTED_RESPONSE' | 'CONNECTION_LOST'

const marker = Symbol.for('toolroute.client-error')

/**
 * The one error class of `toolroute/client`. It carries the spec's `code`, the HTTP `status` the
 * server really answered with (0 when no answer came), `issues` for validation failures, and the
 * run the failure belongs to when the server named one.
 *
 * It is deliberately not the server's `ToolrouteError`: a tool that calls another toolroute
 * deployment and lets this error escape must fail with `EXECUTION_FAILED`, not answer its own
 * caller with the remote's `401` or `RUN_NOT_FOUND`.
 */
export class ToolClientError extends Error {
  readonly [marker] = true
  readonly code: ToolClientErrorCode
  readonly status: number
  readonly issues?: ValidationIssue[]
  readonly runId?: string
  readonly toolCallId?: string

  constructor(
    code: ToolClientErrorCode,
    message: string,
    options: { status?: number; issues?: ValidationIssue[]; runId?: string; toolCallId?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ToolClientError'
    this.code = code
    this.status = options.status ?? 0
    if (options.issues) this.issues = options.issues
    if (options.runId) this.runId = options.runId
    if (options.toolCallId) this.toolCallId = options.toolCallId
  }

  /** Whether a value is a `ToolClientError`, also across two bundled copies of the client. */
  static isInstance(error: unknown): error is ToolClientError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true
  }
}

/** The error of a response that is not OK: the spec's `{ error: { code, message, issues? } }` when it is one. */
export async function responseError(response: Response): Promise<ToolClientError> {
  // The constructor keeps only the ids the server named.
  const ids = { status: response.status, runId: response.headers.get(headerNames.runId) ?? undefined, toolCallId: response.headers.get(headerNames.toolCallId) ?? undefined }
  const text = await response.text().catch(() => '')
  let error: { code?: unknown; message?: unknown; issues?: unknown } | undefined
  try {
    error = (JSON.parse(text) as { error?: typeof error } | null)?.error
  } catch {}
  if (error && typeof error.code === 'string' && typeof error.message === 'string' && isErrorCode(error.code)) {
    return new ToolClientError(error.code, error.message, { ...ids, ...(Array.isArray(error.issues) ? { issues: error.issues as ValidationIssue[] } : {}) })
  }
  const detail = typeof error?.message === 'string' ? error.message : text.slice(0, 200)
  return new ToolClientError('UNEXPECTED_RESPONSE', `Unexpected response ${response.status}${detail ? `: ${detail}` : ''}`, ids)
}
