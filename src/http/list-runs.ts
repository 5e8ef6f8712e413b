import type { Context } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunList, RunStatus } from '../protocol/call-result.ts'
import type { RunHost } from '../runs/run-host.ts'
import { runListLimits, type RunQuery } from '../runs/run-index.ts'
import { settledStatuses, waitingStatuses } from '../runs/run-record.ts'

const statuses: readonly RunStatus[] = ['running', ...waitingStatuses, ...settledStatuses]
const invalid = (name: string, message: string) => new ToolrouteError('INPUT_VALIDATION_FAILED', `Invalid query parameter ${name}: ${message}`, { issues: [{ path: ['query', name], message }] })

// The cursor crosses the wire as base64url of the index's own, so any other value is refused, not misread.
const encodeCursor = (cursor: string) => btoa(String.fromCharCode(...new TextEncoder().encode(cursor))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
function decodeCursor(cursor: string): string {
  if (!/^[\w-]{1,2048}$/.test(cursor)) throw invalid('cursor', 'expected a cursor of an earlier page')
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0)))
  } catch {
    throw invalid('cursor', 'expected a cursor of an earlier page')
  }
}

/** `GET /runs`'s query as the index reads it (SPEC §16); a value it cannot read answers `400 INPUT_VALIDATION_FAILED`. */
export function runQueryOf(c: Context): Partial<RunQuery> {
  const query: Partial<RunQuery> = {}
  const status = c.req.query('status')
  if (status !== undefined) {
    const asked = status.split(',').map((value) => value.trim())
    const unknown = asked.find((value) => !statuses.includes(value as RunStatus))
    if (unknown !== undefined) throw invalid('status', `expected one or more of ${statuses.join(', ')}, comma-separated`)
    query.statuses = [...new Set(asked as RunStatus[])]
  }
  const toolId = c.req.query('toolId')
  if (toolId !== undefined) {
    if (toolId === '' || toolId.length > 256) throw invalid('toolId', 'expected a tool id')
    query.toolId = toolId
  }
  const limit = c.req.query('limit')
  if (limit !== undefined) {
    if (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > runListLimits.max) throw invalid('limit', `expected a whole number from 1 to ${runListLimits.max}`)
    query.limit = Number(limit)
  }
  const cursor = c.req.query('cursor')
  if (cursor !== undefined) query.cursor = decodeCursor(cursor)
  return query
}

/** `GET /runs`: the caller's runs, newest first; a caller with no principal is refused (runs of none are reached by id alone). */
export async function listRuns(c: Context, host: RunHost, principal: string | null): Promise<RunList> {
  if (principal === null) throw new ToolrouteError('UNAUTHORIZED', "Listing runs needs a caller with a principal (credentials, or the config's `principal`)")
  const query = runQueryOf(c)
  if (!host.list) return { runs: [] }
  const page = await host.list({ principal }, query)
  const runs = page.runs.map(({ background: _, ...summary }) => summary)
  return { runs, ...(page.nextCursor !== undefined ? { cursor: encodeCursor(page.nextCursor) } : {}) }
}
