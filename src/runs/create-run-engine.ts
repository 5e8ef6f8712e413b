import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'
import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import { createObserve } from '../runtime/create-observe.ts'
import { executeToolCall, finishOf, type ExecuteOutcome, type ResumeState } from '../runtime/execute-tool-call.ts'
import { loadTool } from '../tool/load-tool.ts'
import { RequestContext } from '../tool/request-context.ts'
import { checkResumeData } from '../runtime/validate-call.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { settledStatuses, waitingStatuses, type RunRecord, type RunStatus } from './run-record.ts'
import type { RunCaller, RunHost, RunSegment } from './run-host.ts'
import { logExecutionFailure } from './log-execution-failure.ts'
import type { RunStore } from './run-store.ts'

export interface RunEngineOptions {
  tools: ReadonlyMap<string, AnyTool>
  store: RunStore
  /** How long a run may wait for approval or resumption (default 24 h). */
  ttlMs?: number
  /** How long a settled run is kept before it is deleted (default 24 h). */
  retentionMs?: number
  /** Asks for `sweep(runId)` to run at a time (a Durable Object sets its alarm). */
  schedule?: (runId: string, at: number) => void | Promise<void>
  /** Keeps background work alive past the request (`ctx.waitUntil`); default: fire and forget. */
  defer?: (work: Promise<unknown>) => void
  /** When runs are driven from several processes (KV), followers also poll this often (ms). */
  pollMs?: number
  now?: () => number
}

export const defaultRunTtlMs = 24 * 60 * 60 * 1000
const defaultBackgroundTimeoutMs = 10 * 60 * 1000

/** The engine behind `RunHost`, plus what a Durable Object's alarm drives. */
export interface RunEngine extends RunHost {
  /** Runs a background run's attempts (from the object's alarm, or deferred in-process). */
  runBackground(runId: string): Promise<void>
  /** Expires a waiting run past its time to live; deletes a settled run past retention. */
  sweep(runId: string): Promise<void>
  /**
   * Aborts the step that began after event `after`, if it is still running in this process: its
   * caller left. For a segment that crossed from another process (a Durable Object's RPC stream,
   * whose cancellation does not reach the object); a segment made here aborts by itself.
   */
  abortStep(runId: string, caller: RunCaller & { after: number; message: string }): Promise<void>
}

/** One follower's share of a run's transient chunks, each with the stored event it came after. */
interface LiveSubscription {
  transients: { after: number | undefined; event: ToolEvent }[]
  /** Whether a follower is reading it (it then disposes it when it stops). */
  taken: boolean
  deliver: (event: ToolEvent, after: number | undefined) => void
  dispose(): void
}

const notFound = (runId: string) => new ToolrouteError('RUN_NOT_FOUND', `Run ${runId} not found`)

/** Slack past an attempt's `timeoutMs` before the watchdog alarm declares it interrupted. */
const watchdogGraceMs = 5_000

/**
 * The abort reason of a cancellation. An execution aborted by it stores nothing more: the
 * cancellation already wrote the run's last events, and a replay must end where the live stream did.
 */
const cancelledMarker = Symbol.for('toolroute.run-cancelled')
const cancellation = () => Object.assign(new Error('The run was cancelled'), { [cancelledMarker]: true })
const isCancelled = (signal: AbortSignal) => signal.aborted && (signal.reason as Record<symbol, unknown> | undefined)?.[cancelledMarker] === true

/**
 * Durable runs over any `RunStore`: approval, decline, suspend/resume, background attempts,
 * cancellation, expiry and replayable events. Every state change is a compare-and-set on the
 * store, so a run executes once however many approve or resume requests race.
 */
export function createRunEngine(options: RunEngineOptions): RunEngine {
  const { tools, store } = options
  const ttlMs = options.ttlMs ?? defaultRunTtlMs
  const retentionMs = options.retentionMs ?? defaultRunTtlMs
  const now = options.now ?? Date.now
  const defer = options.defer ?? ((work: Promise<unknown>) => void work.catch(() => {}))
  const listeners = new Map<string, Set<() => void>>()
  // Live followers of each run, for transient chunks (in this process only: they are never stored).
  const live = new Map<string, Set<(event: ToolEvent, after: number | undefined) => void>>()
  const running = new Map<string, AbortController>()
  // Where each foreground step began (the `after` of its segment), so a late abort from a caller
  // of an earlier step never reaches a later one.
  const stepStarts = new WeakMap<AbortController, number>()
  const iso = (ms = now()) => new Date(ms).toISOString()

  const notify = (runId: string) => listeners.get(runId)?.forEach((wake) => wake())

  function nextChange(runId: string, signal?: AbortSignal): { promise: Promise<void>; dispose(): void } {
    let wake!: () => void
    const promise = new Promise<void>((resolve) => (wake = resolve))
    const set = listeners.get(runId) ?? new Set()
    listeners.set(runId, set)
    set.add(wake)
    const timer = options.pollMs ? setTimeout(wake, options.pollMs) : undefined
    signal?.addEventListener('abort', wake, { once: true })
    return {
      promise,
      dispose() {
        set.delete(wake)
        if (set.size === 0) listeners.delete(runId)
        if (timer) clearTimeout(timer)
        signal?.removeEventListener('abort', wake)
      },
    }
  }

  // A build's lazy tool is loaded here on its first step in this isolate (an approval, a resume
  // or a background attempt may be the first thing a Durable Object does with it).
  async function toolOf(run: RunRecord): Promise<AnyTool> {
    const tool = await loadTool(tools, run.toolId)
    if (!tool) throw new ToolrouteError('EXECUTION_FAILED', `Tool ${run.toolId} of run ${run.runId} is no longer deployed`)
    return tool
  }

  async function schedule(run: RunRecord) {
    if (!options.schedule) return
    const at = waitingStatuses.includes(run.status) && run.expiresAt
      ? Date.parse(run.expiresAt)
      : settledStatuses.includes(run.status)
        ? Date.parse(run.updatedAt) + retentionMs
        : undefined
    if (at !== undefined) await options.schedule(run.runId, at)
  }

  /** Loads a run the caller may see, expiring it first if its wait is over. */
  async function load(runId: string, caller: RunCaller): Promise<RunRecord> {
    const run = await store.get(runId)
    if (!run || (run.principal !== null && run.principal !== caller.principal)) throw notFound(runId)
    if (settledStatuses.includes(run.status) && Date.parse(run.updatedAt) + retentionMs <= now()) {
      // Past retention: gone, whether or not an alarm got to it first (KV and memory have none).
      await store.delete(runId)
      throw notFound(runId)
    }
    if (waitingStatuses.includes(run.status) && run.expiresAt && Date.parse(run.expiresAt) <= now()) {
      const expired = await store.transition(runId, waitingStatuses, { status: 'expired', updatedAt: iso(), expiresAt: undefined })
      if (expired.ok) {
        notify(runId)
        await schedule(expired.run)
        return expired.run
      }
      return expired.reason === 'conflict' ? expired.run : run
    }
    return run
  }

  function refuse(run: RunRecord, wanted: RunStatus, action: string): never {
    if (run.status === 'expired') throw new ToolrouteError('RUN_EXPIRED', `Run ${run.runId} expired before it was ${action}`)
    throw new ToolrouteError('RUN_STATE_CONFLICT', `Run ${run.runId} is ${run.status}, not ${wanted}; it cannot be ${action}`)
  }

  /**
   * A caller's compare-and-set from `from` (the first is the state it names when refused): the
   * stored run and its new events, or the refusal for the state another step left it in.
   */
  async function transitionFor(run: RunRecord, from: readonly RunStatus[], patch: Partial<RunRecord>, events: ToolEvent[], action: string) {
    const result = await store.transition(run.runId, from, patch, events)
    if (!result.ok) refuse(result.reason === 'conflict' ? result.run : run, from[0]!, action)
    notify(run.runId)
    return result
  }

  /**
   * Starts taking a run's transient chunks for one follower. Eager for a step's own segment, so
   * a chunk written before its caller starts reading still reaches it; a subscription nobody
   * reads is disposed when its step ends.
   */
  function subscribe(runId: string): LiveSubscription {
    const followers = live.get(runId) ?? new Set()
    live.set(runId, followers)
    const subscription: LiveSubscription = {
      transients: [],
      taken: false,
      deliver: (event, after) => {
        subscription.transients.push({ after, event })
        notify(runId)
      },
      dispose() {
        followers.delete(subscription.deliver)
        if (followers.size === 0 && live.get(runId) === followers) live.delete(runId)
      },
    }
    followers.add(subscription.deliver)
    return subscription
  }

  async function* follow(runId: string, after: number, signal?: AbortSignal, early?: LiveSubscription): AsyncGenerator<SequencedEvent> {
    let cursor = after
    const subscription = early ?? subscribe(runId)
    subscription.taken = true
    const { transients } = subscription
    /** Stored events in order, each transient chunk after the stored event it followed. */
    function* inOrder(entries: SequencedEvent[]): Generator<SequencedEvent> {
      // A chunk whose place is unknown (its step had appended nothing yet) goes after what is stored now.
      for (const entry of entries) {
        while (transients.length > 0 && (transients[0]!.after ?? Infinity) < entry.seq) yield { seq: cursor, event: transients.shift()!.event }
        cursor = entry.seq
        yield entry
      }
      while (transients.length > 0 && (transients[0]!.after ?? cursor) <= cursor) yield { seq: cursor, event: transients.shift()!.event }
    }
    try {
      while (!signal?.aborted) {
        const change = nextChange(runId, signal)
        try {
          yield* inOrder(await store.events(runId, cursor))
          const run = await store.get(runId)
          if (!run || run.status !== 'running') {
            yield* inOrder(await store.events(runId, cursor))
            return
          }
          await change.promise
        } finally {
          change.dispose()
        }
      }
    } finally {
      subscription.dispose()
    }
  }

  /** Ends a run nothing is executing any more: the failure shows in its log, then `finish`. */
  function interrupted(run: RunRecord, message: string): Promise<RunRecord> {
    const error = new ToolrouteError('EXECUTION_FAILED', message)
    return settle(run, { status: 'failed', error }, [{ type: 'tool-output-error', toolCallId: run.toolCallId, errorText: message }])
  }

  /** Settles a step: its outcome and `finish` in one transition from `running`. */
  async function settle(run: RunRecord, outcome: ExecuteOutcome, before: ToolEvent[] = []): Promise<RunRecord> {
    const at = iso()
    const patch: Partial<RunRecord> =
      outcome.status === 'completed'
        ? { status: 'completed', output: outcome.output, modelOutput: outcome.modelOutput, suspendPayload: undefined }
        : outcome.status === 'suspended'
          ? { status: 'suspended', suspendPayload: outcome.suspendPayload, expiresAt: iso(now() + ttlMs) }
          : { status: 'failed', error: outcome.error.toJSON().error }
    const finish = finishOf(outcome)
    const result = await store.transition(run.runId, ['running'], { ...patch, updatedAt: at }, [...before, finish])
    notify(run.runId)
    if (!result.ok) {
      // Cancelled while running: the cancellation already settled the run.
      return result.reason === 'conflict' ? result.run : run
    }
    await schedule(result.run)
    return result.run
  }

  /** Runs `execute` for a run now `running`, its events appended in order as they come. */
  async function execute(run: RunRecord, signal: AbortSignal, resume?: ResumeState, after?: number): Promise<ExecuteOutcome> {
    let chain: Promise<unknown> = Promise.resolve()
    // The batch still waiting for its append; events emitted meanwhile join it.
    let batch: ToolEvent[] | undefined
    // The number of the last event of the run so far, when known: a transient chunk goes out under it.
    let lastSeq = after
    const emit = (event: ToolEvent) => {
      // Events emitted together (an output and its model output) are stored in one append.
      if (batch) return void batch.push(event)
      const current: ToolEvent[] = (batch = [event])
      chain = chain
        .then(() => {
          if (batch === current) batch = undefined
          // Checked when the append runs: an event emitted just before a cancellation must not
          // land after the cancellation's `finish`.
          return isCancelled(signal) ? undefined : store.append(run.runId, current)
        })
        .then((appended) => {
          if (appended?.length) lastSeq = appended[appended.length - 1]!.seq
          notify(run.runId)
        }, () => {})
    }
    // A transient chunk is never stored: it goes to this process's live followers, in order
    // after the events emitted before it (so it closes the open batch).
    const emitTransient = (event: ToolEvent) => {
      batch = undefined
      chain = chain.then(() => {
        if (!isCancelled(signal)) live.get(run.runId)?.forEach((deliver) => deliver(event, lastSeq))
      })
    }
    let outcome: ExecuteOutcome
    try {
      const tool = await toolOf(run)
      outcome = await executeToolCall(
        {
          tool,
          runId: run.runId,
          toolCallId: run.toolCallId,
          requestContext: new RequestContext(run.requestContext),
          emit,
          emitTransient,
          observe: createObserve(emit),
          signal,
          messages: [],
        },
        run.input,
        resume,
      )
    } catch (error) {
      const failure = ToolrouteError.isInstance(error) ? error : new ToolrouteError('EXECUTION_FAILED', errorMessage(error), { cause: error })
      emit({ type: 'tool-output-error', toolCallId: run.toolCallId, errorText: failure.message })
      outcome = { status: 'failed', error: failure }
    }
    await chain
    if (outcome.status === 'failed') logExecutionFailure(run.toolId, run.runId, outcome.error)
    return outcome
  }

  /**
   * A step runs in the process that started it; if that process dies, only a sweep can end the
   * run. Its sweep moves from the old expiry to one time to live from now, so a sweep elsewhere
   * (Deno KV) never fails a step that is still at work, and a lost one fails within a TTL.
   */
  async function watchStep(runId: string) {
    if (options.schedule) await options.schedule(runId, now() + ttlMs)
  }

  function startStep(run: RunRecord, firstSeq: number, work: (signal: AbortSignal) => Promise<RunRecord>): RunSegment {
    const controller = new AbortController()
    running.set(run.runId, controller)
    stepStarts.set(controller, firstSeq - 1)
    const subscription = subscribe(run.runId)
    const settled = work(controller.signal).finally(() => {
      if (running.get(run.runId) === controller) running.delete(run.runId)
      if (!subscription.taken) subscription.dispose()
    })
    defer(settled)
    return { run, events: follow(run.runId, firstSeq - 1, undefined, subscription), after: firstSeq - 1, settled, abort: (reason) => controller.abort(reason) }
  }

  function doneStep(run: RunRecord, events: SequencedEvent[]): RunSegment {
    const first = events[0]?.seq ?? 1
    return { run, events: follow(run.runId, first - 1), after: first - 1, settled: Promise.resolve(run), abort() {} }
  }

  /** Asks for `runBackground(runId)` soon: the object's alarm, or deferred in-process. */
  async function requeue(runId: string) {
    if (options.schedule) await options.schedule(runId, now())
    else defer(engine.runBackground(runId))
  }

  /**
   * One attempt of a background run; answers whether another attempt should follow. On Durable
   * Objects each attempt runs in its own alarm (an alarm handler's wall time is bounded), and a
   * watchdog alarm just past `timeoutMs` picks up an attempt whose object did not live to finish
   * it: that attempt counts, and the next one starts (or the run fails when none is left).
   */
  async function backgroundAttempt(run: RunRecord, cancel: AbortController): Promise<'retry' | 'done'> {
    // A tool whose module cannot load fails in `execute`, as its calls do; its limits default here.
    const tool = await Promise.resolve(loadTool(tools, run.toolId)).catch(() => undefined)
    const timeoutMs = tool?.background?.timeoutMs ?? defaultBackgroundTimeoutMs
    const maxRetries = tool?.background?.maxRetries ?? 0
    const attempts = (run.attempts ?? 0) + 1
    if (attempts > maxRetries + 1) {
      await interrupted(run, `The run was interrupted after ${run.attempts} attempt(s)`)
      return 'done'
    }
    // Counted before it starts, so an attempt cut short by a restart is not run for free.
    const started = await store.transition(run.runId, ['running'], { attempts, updatedAt: iso() })
    if (!started.ok) return 'done'
    const current = started.run
    if (options.schedule) await options.schedule(run.runId, now() + timeoutMs + watchdogGraceMs)
    const outcome = await execute(current, AbortSignal.any([cancel.signal, AbortSignal.timeout(timeoutMs)]))
    if (outcome.status === 'failed' && attempts <= maxRetries && !cancel.signal.aborted) {
      const message = `Attempt ${attempts} failed: ${outcome.error.message}; retrying`
      // A compare-and-set, so a run cancelled meanwhile gets no event after its `finish`.
      const logged = await store.transition(run.runId, ['running'], { updatedAt: iso() }, [
        { type: 'data-tool-log', data: { level: 'warn', message, time: iso() } },
      ])
      notify(run.runId)
      return logged.ok ? 'retry' : 'done'
    }
    const settledRun = await settle(current, outcome)
    const callback = outcome.status === 'completed' ? tool?.background?.onComplete : outcome.status === 'failed' ? tool?.background?.onFailed : undefined
    if (callback && settledRun.status === outcome.status) {
      try {
        await callback({
          runId: run.runId,
          toolId: run.toolId,
          toolCallId: run.toolCallId,
          status: outcome.status as 'completed' | 'failed',
          attempts,
          ...(outcome.status === 'completed' ? { output: outcome.output } : {}),
          ...(outcome.status === 'failed' ? { error: { code: outcome.error.code, message: outcome.error.message } } : {}),
        })
      } catch {
        // A callback observes the run; its failure does not change it.
      }
    }
    return 'done'
  }

  const engine: RunEngine = {
    async open(run, events) {
      const stored = { ...run, ...(waitingStatuses.includes(run.status) ? { expiresAt: iso(now() + ttlMs) } : {}) }
      await store.create(stored, events)
      notify(run.runId)
      if (stored.status === 'running' && stored.background) {
        await requeue(run.runId)
      } else {
        await schedule(stored)
      }
    },

    async approve(runId, caller) {
      const run = await load(runId, caller)
      if (run.status !== 'approval-required') refuse(run, 'approval-required', 'approved')
      if (caller.approvalId !== undefined && caller.approvalId !== run.approvalId) {
        throw new ToolrouteError('RUN_STATE_CONFLICT', `Approval ${caller.approvalId} does not belong to run ${runId}`)
      }
      const events: ToolEvent[] = [
        { type: 'start', messageMetadata: { runId, toolCallId: run.toolCallId } },
        { type: 'tool-approval-response', approvalId: run.approvalId ?? '', approved: true },
      ]
      const result = await transitionFor(run, ['approval-required'], { status: 'running', updatedAt: iso(), expiresAt: undefined }, events, 'approved')
      const first = result.events[0]!.seq
      if (result.run.background) {
        await requeue(runId)
        return doneStep(result.run, result.events)
      }
      await watchStep(runId)
      return startStep(result.run, first, async (signal) => settle(result.run, await execute(result.run, signal, undefined, result.events.at(-1)!.seq)))
    },

    async decline(runId, caller) {
      const run = await load(runId, caller)
      if (run.status !== 'approval-required') refuse(run, 'approval-required', 'declined')
      const events: ToolEvent[] = [
        { type: 'start', messageMetadata: { runId, toolCallId: run.toolCallId } },
        { type: 'tool-approval-response', approvalId: run.approvalId ?? '', approved: false, ...(caller.reason !== undefined ? { reason: caller.reason } : {}) },
        { type: 'tool-output-denied', toolCallId: run.toolCallId },
        { type: 'finish', finishReason: 'stop' },
      ]
      const patch: Partial<RunRecord> = { status: 'declined', updatedAt: iso(), expiresAt: undefined, ...(caller.reason !== undefined ? { reason: caller.reason } : {}) }
      const result = await transitionFor(run, ['approval-required'], patch, events, 'declined')
      await schedule(result.run)
      return doneStep(result.run, result.events)
    },

    async resume(runId, caller) {
      const run = await load(runId, caller)
      if (run.status !== 'suspended') refuse(run, 'suspended', 'resumed')
      // Validated before the transition: a rejected resume leaves the run suspended.
      const checked = checkResumeData(run.toolId, (await toolOf(run)).schemas.resume, caller.resumeData)
      if (!checked.ok) throw checked.error
      const events: ToolEvent[] = [
        { type: 'start', messageMetadata: { runId, toolCallId: run.toolCallId } },
        { type: 'data-tool-resumed', data: { runId, toolCallId: run.toolCallId, resumeData: caller.resumeData } },
      ]
      const result = await transitionFor(run, ['suspended'], { status: 'running', updatedAt: iso(), expiresAt: undefined }, events, 'resumed')
      const resume = { resumeData: checked.value, suspendPayload: run.suspendPayload }
      await watchStep(runId)
      return startStep(result.run, result.events[0]!.seq, async (signal) => settle(result.run, await execute(result.run, signal, resume, result.events.at(-1)!.seq)))
    },

    async cancel(runId, caller) {
      const run = await load(runId, caller)
      if (run.status === 'expired') refuse(run, 'running', 'cancelled')
      const events: ToolEvent[] = [
        // A waiting run's last stream ended with `finish`: the cancellation opens its own.
        ...(waitingStatuses.includes(run.status) ? [{ type: 'start', messageMetadata: { runId, toolCallId: run.toolCallId } } satisfies ToolEvent] : []),
        { type: 'tool-output-error', toolCallId: run.toolCallId, errorText: 'The run was cancelled' },
        { type: 'finish', finishReason: 'other' },
      ]
      const result = await transitionFor(run, ['running', ...waitingStatuses], { status: 'cancelled', updatedAt: iso(), expiresAt: undefined }, events, 'cancelled')
      running.get(runId)?.abort(cancellation())
      await schedule(result.run)
      return result.run
    },

    async get(runId, caller) {
      const run = await load(runId, caller)
      return { run, events: await store.events(runId, 0) }
    },

    async abortStep(runId, caller) {
      await load(runId, caller)
      const controller = running.get(runId)
      if (controller && stepStarts.get(controller) === caller.after) controller.abort(new Error(caller.message))
    },

    async follow(runId, caller) {
      await load(runId, caller)
      return follow(runId, caller.after, caller.signal)
    },

    async runBackground(runId) {
      // Claimed before the first `await`, so one process never runs two attempts of a run at once.
      if (running.has(runId)) return
      const cancel = new AbortController()
      running.set(runId, cancel)
      let next: 'retry' | 'done' = 'done'
      try {
        const run = await store.get(runId)
        if (run?.status === 'running' && run.background) next = await backgroundAttempt(run, cancel)
      } finally {
        if (running.get(runId) === cancel) running.delete(runId)
      }
      if (next === 'retry') await requeue(runId)
    },

    async sweep(runId) {
      const run = await store.get(runId)
      if (!run) return
      if (run.status === 'running' && !running.has(runId)) {
        if (run.background) return engine.runBackground(runId)
        // A step whose object restarted mid-execution: nothing will finish it.
        await interrupted(run, 'The run was interrupted before it finished')
        return
      }
      if (waitingStatuses.includes(run.status) && run.expiresAt && Date.parse(run.expiresAt) <= now()) {
        await load(runId, { principal: run.principal })
        return
      }
      if (settledStatuses.includes(run.status) && Date.parse(run.updatedAt) + retentionMs <= now()) {
        await store.delete(runId)
        return
      }
      await schedule(run)
    },
  }
  return engine
}
