import { z } from 'zod'
import type { ErrorCode, ValidationIssue } from '../errors/toolroute-error.ts'
import type { RunStatus } from '../protocol/call-result.ts'
import type { ToolModelOutput } from '../protocol/model-output.ts'

export type { RunStatus, RunView } from '../protocol/call-result.ts'

export const waitingStatuses: readonly RunStatus[] = ['approval-required', 'suspended']
export const settledStatuses: readonly RunStatus[] = ['completed', 'failed', 'declined', 'cancelled', 'expired']

/** A stored run. Everything here is plain JSON, so every backend stores it as is. */
export interface RunRecord {
  runId: string
  toolId: string
  toolCallId: string
  /** Who created the run; only they may read or drive it. `null`: anyone holding the run id. */
  principal: string | null
  status: RunStatus
  createdAt: string
  updatedAt: string
  /** When a waiting run expires (ISO time). */
  expiresAt?: string
  input: unknown
  requestContext: Record<string, unknown>
  approvalId?: string
  suspendPayload?: unknown
  output?: unknown
  modelOutput?: ToolModelOutput
  error?: { code: ErrorCode; message: string; issues?: ValidationIssue[] }
  reason?: string
  background?: boolean
  attempts?: number
}

const issueSchema = z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })

/**
 * Decodes a stored run. Stored runs outlive the code that wrote them, so a record is checked,
 * not cast, when it comes out of storage.
 */
export const runRecordSchema = z.object({
  runId: z.string(),
  toolId: z.string(),
  toolCallId: z.string(),
  principal: z.string().nullable(),
  status: z.enum(['running', 'approval-required', 'suspended', 'completed', 'failed', 'declined', 'cancelled', 'expired']),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string().optional(),
  input: z.unknown(),
  requestContext: z.record(z.string(), z.unknown()),
  approvalId: z.string().optional(),
  suspendPayload: z.unknown().optional(),
  output: z.unknown().optional(),
  modelOutput: z.custom<ToolModelOutput>((value) => typeof value === 'object' && value !== null).optional(),
  error: z
    .object({ code: z.custom<ErrorCode>((value) => typeof value === 'string'), message: z.string(), issues: z.array(issueSchema).optional() })
    .optional(),
  reason: z.string().optional(),
  background: z.boolean().optional(),
  attempts: z.number().optional(),
})

/** A stored run, checked; throws on a record this code cannot read. */
export function decodeRunRecord(value: unknown): RunRecord {
  return runRecordSchema.parse(value) as RunRecord
}
