import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'
import type { ErrorBody } from '../protocol/error-codes.ts'
import type { RunStatus } from '../protocol/call-result.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'
import { startCall } from '../runtime/start-call.ts'
import type { RunSegment } from '../runs/run-host.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { runKeeper } from '../runs/run-keeper.ts'
import { createMemoryRunHost } from '../store/memory/create-memory-run-host.ts'
import type { AnyTool, InferToolInput, InferToolOutput, Tool } from '../tool/tool-types.ts'

type ResumeOf<T> = T extends Tool<any, any, any, any, infer R, any> ? R : unknown
type SuspendOf<T> = T extends Tool<any, any, any, infer S, any, any> ? S : unknown
type RequestContextOf<T> = T extends Tool<any, any, any, any, any, infer C> ? C : Record<string, unknown>

/** How `runTool` answers what a person would answer over HTTP. */
export interface RunToolOptions<T extends AnyTool = AnyTool> {
  /** The request context as a caller sends it (`x-request-context`), validated by the tool's `requestContextSchema`. */
  requestContext?: Partial<RequestContextOf<T>> & Record<string, unknown>
  /** The answer to an approval request: `true` approves, anything else declines (default). */
  approve?: boolean
  /** The answer to the tool's first suspension (`POST /runs/:runId/resume`); without it the run stays suspended. */
  resumeData?: ResumeOf<T>
}

/** Where a `runTool` call ended: `status` and `error` as the JSON answers of SPEC §2, `events` as the raw view of its streams. */
export interface RunToolResult<T extends AnyTool = AnyTool> {
  /** `failed` for any error answer (validation, a tool that threw); `suspended` when no `resumeData` answered (or it was refused). */
  status: Extract<RunStatus, 'completed' | 'failed' | 'declined' | 'suspended'>
  output?: InferToolOutput<T>
  error?: ErrorBody['error']
  suspendPayload?: SuspendOf<T>
  /** Every event of the call, its approval and its resume, in order, as `?view=raw` streams them. */
  events: ToolEvent[]
}

const caller = { principal: null }

/**
 * Calls one tool through the phases of `POST /tools/:toolId`, without a server: request context
 * and input validation (the input travels as JSON, as over the wire), hooks, the approval rule
 * (answered with `approve`), `execute`, a suspension (answered with `resumeData`), background
 * attempts. The executor and the run engine are the ones HTTP uses, over runs kept in memory, so
 * it runs in Node and in workerd alike.
 *
 * @example
 * const result = await runTool(deleteFile, { path: 'a.txt' }, { approve: true })
 * expect(result).toMatchObject({ status: 'completed', output: { deleted: 'a.txt' } })
 */
export async function runTool<T extends AnyTool>(tool: T, input: InferToolInput<T>, options: RunToolOptions<T> = {}): Promise<RunToolResult<T>> {
  const events: ToolEvent[] = []
  const failed = (error: unknown): RunToolResult<T> => ({ status: 'failed', error: toError(error), events })
  const sent = (options.requestContext ?? {}) as Record<string, unknown>
  const call = startCall(tool, sent)
  if (!call.ok) return failed(call.error)

  const host = createMemoryRunHost(new Map([[tool.id, tool]]))
  const running = call.run({
    source: { text: JSON.stringify(input) ?? '' },
    keeper: runKeeper({ tool, runs: () => host, storeRuns: 'stateful', principal: null, sentRequestContext: sent }),
    // As over HTTP, `data-tool-suspended` waits until its run is stored (http/call-tool.ts).
    holdSuspended: true,
  })
  const seen = { events, last: 0 }
  const reading = collect(running.log.read(), seen)
  const ending = await running.ending.catch((error: unknown) => ({ kind: 'thrown' as const, error }))
  await reading
  if (ending.kind === 'thrown' || ending.kind === 'input-error') return failed(ending.error)
  if (ending.kind === 'executed' && !ending.run) {
    const { outcome } = ending
    return outcome.status === 'completed' ? { status: 'completed', output: outcome.output as InferToolOutput<T>, events } : failed(outcome.status === 'failed' ? outcome.error : undefined)
  }
  const { runId } = running.ids
  /** One later step of the run, as its route runs it: its events, then where the run ended (a background run, once settled). */
  const step = async (start: Promise<RunSegment>): Promise<RunRecord> => {
    const segment = await start
    await collect(segment.events, seen)
    return settled(await segment.settled)
  }
  /** A background run: its events until it stops running, then where it ended. */
  const settled = async (run: RunRecord): Promise<RunRecord> => {
    if (run.status !== 'running') return run
    await collect(await host.follow(runId, { ...caller, after: seen.last }), seen)
    return (await host.get(runId, caller)).run
  }
  try {
    let run = ending.run!
    if (run.status === 'approval-required') run = await step(options.approve === true ? host.approve(runId, caller) : host.decline(runId, caller))
    else run = await settled(run)
    if (run.status !== 'suspended' || options.resumeData === undefined) return resultOf(run, events)
    try {
      run = await step(host.resume(runId, { ...caller, resumeData: options.resumeData }))
    } catch (error) {
      // A refused resume leaves the run suspended, as over HTTP.
      return { ...resultOf(run, events), error: toError(error) }
    }
    return resultOf(run, events)
  } catch (error) {
    return failed(error)
  }
}

async function collect(source: AsyncIterable<{ seq: number; event: ToolEvent }>, into: { events: ToolEvent[]; last: number }): Promise<void> {
  for await (const { seq, event } of source) {
    into.events.push(event)
    into.last = Math.max(into.last, seq)
  }
}

function resultOf<T extends AnyTool>(run: RunRecord, events: ToolEvent[]): RunToolResult<T> {
  switch (run.status) {
    case 'completed':
      return { status: 'completed', output: run.output as InferToolOutput<T>, events }
    case 'declined':
      return { status: 'declined', events }
    case 'suspended':
      return { status: 'suspended', suspendPayload: run.suspendPayload as SuspendOf<T>, events }
    default:
      return { status: 'failed', error: run.error ?? { code: 'EXECUTION_FAILED', message: `The run ended ${run.status}` }, events }
  }
}

function toError(error: unknown): ErrorBody['error'] {
  return (ToolrouteError.isInstance(error) ? error : new ToolrouteError('EXECUTION_FAILED', errorMessage(error))).toJSON().error
}
