import { errorStatus, type ErrorBody, type ErrorCode, type ValidationIssue } from '../protocol/error-codes.ts'

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

/** An unknown tool id, as every route that takes one answers it (404). */
export function toolNotFound(id: string | undefined): ToolrouteError {
  return new ToolrouteError('TOOL_NOT_FOUND', `Tool ${id} not found`)
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
