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

/** What a call's failure says of an output that cannot become JSON (a BigInt, a cycle, a `toJSON` that throws). */
export const outputNotJsonMessage = 'Tool output is not JSON (a BigInt, a cycle or a toJSON that throws): it cannot be sent or kept'

/** Whether `value` becomes JSON (no BigInt, cycle, or `toJSON` that throws). */
export function isJson(value: unknown): boolean {
  try {
    return JSON.stringify(value), true
  } catch {
    return false
  }
}

/** What a thrown value without a string `message` says on the wire (the log keeps the value itself). */
export const nonErrorMessage = 'Tool threw a non-Error value'

/**
 * The message of anything thrown, never its stack nor its other fields: an `Error`'s or an object's
 * string `message`, a thrown string itself, else `nonErrorMessage`. Never throws (a getter or a
 * `toString` that throws included).
 */
export function errorMessage(error: unknown): string {
  try {
    if (typeof error === 'string') return error
    const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined
    if (typeof message === 'string') return message
  } catch {
    // A `message` getter (or a Proxy) that throws: the fixed message.
  }
  return nonErrorMessage
}
