import type { ValidationIssue } from '../protocol/error-codes.ts'
import type { RunStatus, RunView } from '../protocol/call-result.ts'
import type { ElicitRequestParams, ElicitResult } from '../tool/tool-execution-context.ts'

/** A question a running step asked (`mcp.elicitation.sendRequest`), and its answer once given. */
export interface RunQuestion {
  request: ElicitRequestParams
  answer?: ElicitResult
}

export const waitingStatuses: readonly RunStatus[] = ['approval-required', 'suspended']
export const settledStatuses: readonly RunStatus[] = ['completed', 'failed', 'declined', 'cancelled', 'expired']

/**
 * A stored run. Everything here is plain JSON, so every backend stores it as is. The fields it shares
 * with its public view (`RunView`, `GET /runs/:runId`) are the view's; the rest only the server sees.
 */
export interface RunRecord
  extends Pick<RunView, 'runId' | 'toolId' | 'toolCallId' | 'traceId' | 'status' | 'createdAt' | 'updatedAt' | 'approvalId' | 'suspendPayload' | 'output' | 'modelOutput' | 'error' | 'reason'> {
  /** The span of the call that made the run, when traced (SPEC §17): a later step's span links to it. Never sent. */
  spanId?: string
  /** A traced background run's approval's `traceparent`: its attempts' spans are under it, as a foreground approve's (SPEC §17). Never sent. */
  approvedUnder?: string
  /** Who created the run; only they may read or drive it. `null`: anyone holding the run id. */
  principal: string | null
  /** When a waiting run expires (ISO time). */
  expiresAt?: string
  /** Until when the process executing a running run holds it (ISO time); past it, a crash (SPEC §12). */
  leaseUntil?: string
  /** Each status it took and when: set by `opened`, grown by each transition that names one. */
  history?: RunView['history']
  input: unknown
  requestContext: Record<string, unknown>
  background?: boolean
  attempts?: number
  /** The progress token of the MCP call that made this run a task (2025-11-25; mcp/task-progress.ts). */
  progressToken?: string | number
  /** Its requester answers the questions its steps ask mid-`execute` (MCP `tasks/update`): they get `mcp.elicitation`. */
  askable?: boolean
  /** The questions the running step asked, by key, until it reads their answers. */
  questions?: Record<string, RunQuestion>
}

const statuses = new Set<unknown>(['running', ...waitingStatuses, ...settledStatuses])
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const optional = (check: (value: unknown) => boolean) => (value: unknown) => value === undefined || check(value)
export const isString = (value: unknown): value is string => typeof value === 'string'
const isIssue = (value: unknown) =>
  isObject(value) && isString(value.message) && Array.isArray(value.path) && value.path.every((key) => typeof key === 'string' || typeof key === 'number')

/** Each field of a stored run and what it must hold: the record is rebuilt from these alone. */
const fields: Record<keyof RunRecord, (value: unknown) => boolean> = {
  runId: isString,
  toolId: isString,
  toolCallId: isString,
  traceId: optional(isString),
  spanId: optional(isString),
  approvedUnder: optional(isString),
  principal: (value) => value === null || isString(value),
  status: (value) => statuses.has(value),
  createdAt: isString,
  updatedAt: isString,
  expiresAt: optional(isString),
  leaseUntil: optional(isString),
  history: optional((value) => Array.isArray(value) && value.every((change) => isObject(change) && statuses.has(change.status) && isString(change.at))),
  input: () => true,
  requestContext: isObject,
  approvalId: optional(isString),
  suspendPayload: () => true,
  output: () => true,
  modelOutput: optional((value) => typeof value === 'object' && value !== null),
  error: optional((value) => isObject(value) && isString(value.code) && isString(value.message) && optional((issues) => Array.isArray(issues) && issues.every(isIssue))(value.issues)),
  reason: optional(isString),
  background: optional((value) => typeof value === 'boolean'),
  attempts: optional((value) => typeof value === 'number'),
  progressToken: optional((value) => typeof value === 'string' || typeof value === 'number'),
  askable: optional((value) => typeof value === 'boolean'),
  questions: optional((value) => isObject(value) && Object.values(value).every((question) => isObject(question) && isObject(question.request) && optional(isObject)(question.answer))),
}

/**
 * A stored run, checked, not cast: stored runs outlive the code that wrote them. Throws on one this
 * code cannot read; unknown fields are dropped. By hand, so a Worker carries no Zod for it.
 */
export function decodeRunRecord(value: unknown): RunRecord {
  if (!isObject(value)) throw new Error('A stored run cannot be read: it is not an object')
  const run: Record<string, unknown> = {}
  for (const [name, check] of Object.entries(fields)) {
    if (!check(value[name])) throw new Error(`A stored run cannot be read: its field ${name} is ${value[name] === undefined ? 'missing' : 'malformed'}`)
    if (value[name] !== undefined) run[name] = value[name]
  }
  if (isObject(run.error)) {
    const { code, message, issues } = run.error
    run.error = { code, message, ...(Array.isArray(issues) ? { issues: (issues as ValidationIssue[]).map(({ path, message }) => ({ path, message })) } : {}) }
  }
  return run as unknown as RunRecord
}
