import type { RunSummary } from '../protocol/call-result.ts'
import type { RunRecord } from './run-record.ts'

/** A run as listed (`GET /runs`) and told (webhooks): its ids, status and times, none of its payloads (SPEC §16). */
export function runSummaryOf(run: RunRecord): RunSummary {
  const { runId, toolId, toolCallId, status, createdAt, updatedAt, approvalId, expiresAt } = run
  return { runId, toolId, toolCallId, status, createdAt, updatedAt, ...(approvalId && { approvalId }), ...(expiresAt && { expiresAt }) }
}
