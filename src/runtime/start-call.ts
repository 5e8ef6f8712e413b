import { errorMessage, isJson, outputNotJsonMessage, ToolrouteError } from '../errors/toolroute-error.ts'
import { EventLog } from '../events/event-log.ts'
import type { RunIds } from '../protocol/call-result.ts'
import type { ErrorBody } from '../protocol/error-codes.ts'
import type { EmitEvent, ToolEvent } from '../protocol/tool-event.ts'
import { isBackgroundTool } from '../protocol/is-background-tool.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { createRunId, createToolCallId, randomHex } from './create-id.ts'
import { traceIdOf } from '../protocol/traceparent.ts'
import { EventCallScope, type EventCallExtras } from './event-call-scope.ts'
import { CallAbort } from './call-abort.ts'
import { executeToolCall, finishOf, needsApproval, type ExecuteOutcome } from './execute-tool-call.ts'
import { logExecutionFailure } from './log-execution-failure.ts'
import type { ResumeState } from './execution-context.ts'
import type { ToolModelOutput } from '../protocol/model-output.ts'
import { receiveInput, type ToolInputSource } from './receive-input.ts'

export type { ToolInputSource }
import type { ToolCallScope } from './tool-call-scope.ts'
import { checkRequestContext } from './validate-call.ts'

/** A call's ids: those of the run it is, or will be kept as, and its trace (SPEC §17: every call has one), with its span's id when traced. */
export type CallIds = RunIds & { traceId: string; spanId?: string }

/** Where a call stands when it is kept: what its run records of the first step. */
export type KeptState =
  | { status: 'approval-required'; approvalId: string; background?: true }
  | { status: 'running'; background: true; attempts: 0 }
  | { status: 'suspended'; suspendPayload: unknown }
  | { status: 'completed'; output: unknown; modelOutput: ToolModelOutput }
  | { status: 'failed'; error: ErrorBody['error'] }

/**
 * Where a call is kept when it must be: a run that waits (approval, background, suspended), or
 * every call when `keepAll`. Passed in by whoever starts the call (`runs/run-keeper.ts`); `R` is the kept run.
 */
export interface CallKeeper<R> {
  keepAll: boolean
  /** Why a call that must be kept cannot be, asked before any hook runs (an app that keeps no runs). */
  refusal(): unknown
  /** Keeps the call, with its events so far. */
  keep(ids: CallIds, input: unknown, state: KeptState, events: ToolEvent[]): Promise<R>
}

/** How the first step of a call ended; `run` is the call as kept, when it was. */
export type CallEnding<R> =
  | { kind: 'input-error'; error: ToolrouteError }
  | { kind: 'approval-required'; approvalId: string; run: R }
  | { kind: 'background'; run: R }
  | { kind: 'executed'; outcome: ExecuteOutcome; run?: R }

export interface CallPhases<R> {
  source: ToolInputSource
  keeper: CallKeeper<R>
  /** Made before the call (an idempotent call claims its key with them); else new ones. */
  ids?: CallIds
  extras?: EventCallExtras
  /** Whose signal aborts the call when it aborts (an HTTP request: its caller left), followed only once the tool reads its own. */
  abortWith?: { readonly signal?: AbortSignal | null }
  /** Sees every event the scope emits, after the log (MCP's progress notifications). */
  tap?: (event: ToolEvent) => void
  /** Hold `data-tool-suspended` back until its run is kept, so a caller acting on it never meets RUN_NOT_FOUND. */
  holdSuspended?: boolean
  /** Told as soon as the input phase ends, before any approval or execution. */
  onInput?: (ok: boolean) => void
}

/** A call under way: its ids, its log (closed at the ending), its scope, and where it will end. */
export interface RunningCall<R> {
  ids: CallIds
  log: EventLog
  scope: EventCallScope
  ending: Promise<CallEnding<R>>
  /** With `abortWith`: released once the call is over (a late disconnect must not abort it), or aborted when its caller leaves. */
  abort?: CallAbort
}

/**
 * A call whose request context passed its tool's schema: `requestContext` parsed, and
 * `sentRequestContext` as sent, which a kept run stores (a later step parses it again, once).
 */
export class ToolCall {
  readonly ok = true
  readonly tool: AnyTool
  readonly requestContext: Record<string, unknown>
  readonly sentRequestContext: Record<string, unknown>

  constructor(tool: AnyTool, requestContext: Record<string, unknown>, sentRequestContext: Record<string, unknown>) {
    this.tool = tool
    this.requestContext = requestContext
    this.sentRequestContext = sentRequestContext
  }

  /**
   * The rest of the call, in this order: input, the approval rule, then a background hand-off or
   * `execute`. A call that must be kept is kept with its events so far. The log ends with `finish`
   * however the call ends; a failure to keep rejects the ending, after `tool-output-error` and `finish`.
   */
  run<R>(phases: CallPhases<R>): RunningCall<R> {
    const ids = phases.ids ?? newCallIds()
    const log = new EventLog()
    const { tap } = phases
    const held: ToolEvent[] | undefined = phases.holdSuspended ? [] : undefined
    const push = held ? (event: ToolEvent) => void (event.type === 'data-tool-suspended' ? held.push(event) : log.push(event)) : log.push
    const emit = tap ? (event: ToolEvent) => (push(event), tap(event)) : push
    const abort = phases.abortWith && new CallAbort(phases.abortWith, callerGone)
    const scope = new EventCallScope(this.tool, ids, this.requestContext, emit, { emitTransient: (event) => log.pushTransient(event), ...phases.extras, abort })
    return { ids, log, scope, ending: runPhases(this.tool, ids, log, scope, held, phases), abort }
  }

  /** A later step of a kept call (approved, resumed, a background attempt): `execute` once on its stored input, its events to `emit`. */
  step(ids: RunIds, input: unknown, emit: EmitEvent, extras: EventCallExtras, resume?: ResumeState): Promise<ExecuteOutcome> {
    return executeToolCall(new EventCallScope(this.tool, ids, this.requestContext, emit, extras), input, resume)
  }
}

const callerGone = () => new Error('The caller disconnected')

/** A new call's ids: a fresh run id, the caller's tool call id when it sent one (an empty one is none), its span's ids, else its trace's or a new trace id. */
export function newCallIds(toolCallId?: string | null, traceparent?: string | null, span?: { traceId: string; spanId: string }): CallIds {
  return { runId: createRunId(), toolCallId: toolCallId || createToolCallId(), ...(span ?? { traceId: traceIdOf(traceparent) }) }
}

/**
 * Starts a call of `tool` with the request context its caller sent: the first check of every call
 * on every surface (HTTP, MCP, the Mastra route, a run's later step, `tool.execute()`).
 */
export function startCall(tool: AnyTool, sent: Record<string, unknown>): ToolCall | { ok: false; error: ToolrouteError } {
  const checked = checkRequestContext(tool.id, tool.schemas.requestContext, sent)
  return checked.ok ? new ToolCall(tool, checked.value, sent) : checked
}

/** The events a call whose output could not be kept keeps: all but its outputs. */
const keptOfUnkept = (event: ToolEvent) => event.type !== 'tool-output-available' && event.type !== 'data-tool-model-output'

async function runPhases<R>(tool: AnyTool, ids: CallIds, log: EventLog, scope: ToolCallScope, held: ToolEvent[] | undefined, phases: CallPhases<R>): Promise<CallEnding<R>> {
  const { keeper, onInput } = phases
  const { runId, toolCallId, traceId } = ids
  let input: unknown
  /** Keeps the call with the events so far plus `last`, then adds `last` to the log. */
  const keep = async (state: KeptState, last: ToolEvent[]): Promise<R> => {
    const run = await keeper.keep(ids, input, state, [...log.events, ...last])
    last.forEach(log.push)
    return run
  }
  try {
    log.push({ type: 'start', messageMetadata: { runId, toolCallId, traceId } })
    // A call kept whatever happens, by an app that keeps none: refused before any hook runs.
    const refused = keeper.keepAll ? keeper.refusal() : undefined
    if (refused) throw refused
    const received = await (scope.trace ? scope.trace('validate', () => receiveInput(scope, phases.source)) : receiveInput(scope, phases.source))
    onInput?.(received.ok)
    if (!received.ok) {
      log.push({ type: 'finish', finishReason: 'error' })
      return { kind: 'input-error', error: received.error }
    }
    input = received.value.value
    if (await needsApproval(scope, input)) {
      const approvalId = `approval_${randomHex(12)}`
      const run = await keep({ status: 'approval-required', approvalId, ...(isBackgroundTool(tool) ? { background: true as const } : {}) }, [
        { type: 'tool-approval-request', approvalId, toolCallId },
        { type: 'finish', finishReason: 'other' },
      ])
      return { kind: 'approval-required', approvalId, run }
    }
    if (isBackgroundTool(tool)) return { kind: 'background', run: await keep({ status: 'running', background: true, attempts: 0 }, []) }
    const outcome = await executeToolCall(scope, input)
    if (outcome.status === 'failed') logExecutionFailure(tool.id, runId, outcome.error)
    const finish = finishOf(outcome)
    if (outcome.status === 'suspended') {
      const run = await keep({ status: 'suspended', suspendPayload: outcome.suspendPayload }, [...(held?.splice(0) ?? []), finish])
      return { kind: 'executed', outcome, run }
    }
    if (keeper.keepAll) {
      if (outcome.status === 'failed') return { kind: 'executed', outcome, run: await keep({ status: 'failed', error: outcome.error.toJSON().error }, [finish]) }
      // Checked here, once per kept call: a store across an RPC boundary would call a `toJSON` remotely and keep `{}`.
      const json = isJson([outcome.output, outcome.modelOutput])
      try {
        if (!json) throw new ToolrouteError('EXECUTION_FAILED', outputNotJsonMessage)
        return { kind: 'executed', outcome, run: await keep({ status: 'completed', output: outcome.output, modelOutput: outcome.modelOutput }, [finish]) }
      } catch (error) {
        // An output that cannot be kept (no JSON, past a limit) is the call's failure, kept in its place:
        // a key then settles on it. A store that refuses the failure too is down: thrown as it was.
        const failure = new ToolrouteError('EXECUTION_FAILED', errorMessage(error), { cause: error })
        const failed = { status: 'failed' as const, error: failure }
        const events: ToolEvent[] = [{ type: 'tool-output-error', toolCallId, errorText: failure.message }, { type: 'finish', finishReason: 'error' }]
        const run = await keeper.keep(ids, input, { status: 'failed', error: failure.toJSON().error }, [...log.events.filter(keptOfUnkept), ...events]).catch(() => {
          throw error
        })
        events.forEach(log.push)
        return { kind: 'executed', outcome: failed, run }
      }
    }
    log.push(finish)
    return { kind: 'executed', outcome }
  } catch (error) {
    // The call could not be kept (or a hook of ours broke): the stream still ends properly.
    onInput?.(false)
    log.push({ type: 'tool-output-error', toolCallId, errorText: errorMessage(error) })
    log.push({ type: 'finish', finishReason: 'error' })
    throw error
  } finally {
    log.close()
  }
}
