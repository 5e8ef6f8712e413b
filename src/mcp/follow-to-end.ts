import type { RunRecord } from '../runs/run-record.ts'
import type { AnswerContext } from './answer-waiting-run.ts'

/** Follows a background run until it settles (or the MCP call is cancelled). */
export async function followToEnd(context: Omit<AnswerContext, 'tool'>, run: RunRecord): Promise<RunRecord> {
  const caller = { principal: context.principal }
  for await (const _ of await context.runs.follow(run.runId, { ...caller, after: 0, signal: context.signal }));
  // A request its client dropped does no more I/O of its own (on Workers it would never settle): the run as last known.
  if (context.signal.aborted) return run
  return (await context.runs.get(run.runId, caller)).run
}

