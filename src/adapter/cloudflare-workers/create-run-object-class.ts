import { DurableObject } from 'cloudflare:workers'
import type { SequencedEvent, ToolEvent } from '../../protocol/tool-event.ts'
import type { RunEngine, RunEngineOptions } from '../../runs/create-run-engine.ts'
import type { RunRecord } from '../../runs/run-record.ts'
import type { RunStore } from '../../runs/run-store.ts'
import type { RunCaller, RunEventPage, RunSegment } from '../../runs/run-host.ts'
import { encodeSegmentStream, rpc, type RpcResult } from './segment-stream.ts'
import { createDurableObjectRunStore, storedRunId } from './durable-object-run-store.ts'
import { millisecondsOf } from './milliseconds-of.ts'
import type { RunIndexEntry, RunIndexPage, RunQuery } from '../../runs/run-index.ts'
import { durableObjectIndexOutbox } from './durable-object-index-outbox.ts'
import { createSqlRunIndex, type SqlRunIndex } from './sql-run-index.ts'
import { createDurableObjectRunIndex } from './durable-object-run-index.ts'
import { runsBinding } from './runs-binding.ts'
import { eventPage } from '../../runs/run-limits.ts'
import type { ElicitResult } from '../../tool/tool-execution-context.ts'

export interface ToolRunObjectOptions extends Pick<RunEngineOptions, 'runLimits'> {
  /** How long a run may wait for approval or resumption (default 24 h); else the `TOOLROUTE_RUN_TTL_MS` var. */
  runTtlMs?: number
  /** How long a settled run is kept (default 24 h); else the `TOOLROUTE_RETENTION_MS` var. */
  retentionMs?: number
  /** How long a call's lease on its run and its key lasts unrenewed before it counts as crashed (default 30 s, SPEC §12); else the `TOOLROUTE_LEASE_MS` var. */
  leaseMs?: number
}

/**
 * A step's answer over RPC: the run after its state change, and its events. A step ended by the object's
 * next turn carries them in the answer (`done`); a longer one streams them as NDJSON; a background run's
 * step has none (a caller that wants its events `follow`s them, from `after`).
 */
export type RpcSegment = RpcResult<{
  run: RunRecord
  after: number
  stream: ReadableStream<Uint8Array> | null
  done?: { run: RunRecord; events: SequencedEvent[] }
}>

/** Resolves on the object's next turn, once what the current one started has run. */
const nextTurn = () => new Promise<undefined>((resolve) => setTimeout(resolve, 0, undefined))

async function streamed(segment: RunSegment) {
  const { run } = segment
  const after = segment.after ?? 0
  if (run.background && run.status === 'running') return { run, after, stream: null }
  // A failed step falls back to the stream, which carries the failure.
  const ended = await Promise.race([segment.settled.catch(() => undefined), nextTurn()])
  let events: AsyncIterable<SequencedEvent> = segment.events
  if (ended) {
    // Carried in the answer up to a page; a step that wrote more streams like a long one.
    const iterator = segment.events[Symbol.asyncIterator]()
    const read: SequencedEvent[] = []
    for (let next = await iterator.next(); ; next = await iterator.next()) {
      if (next.done) return { run, after, stream: null, done: { run: ended, events: read } }
      read.push(next.value)
      if (read.length > eventPage.size) break
    }
    events = (async function* () {
      yield* read
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value
    })()
  }
  const abort = () => segment.abort(new Error('The caller disconnected'))
  return { run, after, stream: encodeSegmentStream(events, () => segment.settled, abort) }
}

/** What a mounted feature (`workerWebhooks`) adds to each run object: it wraps the store and shares the one alarm with the engine. */
export type RunObjectMount = (storage: DurableObjectStorage) => { store(store: RunStore): RunStore; schedule(at: number): Promise<void>; alarm(sweep: () => Promise<void>): Promise<void> }

/** Makes the engine a run object runs, from what the object hands it: its own storage, alarm and `waitUntil`, and the config's times. */
type EngineOf = (options: Pick<RunEngineOptions, 'store' | 'index' | 'ttlMs' | 'retentionMs' | 'runLimits' | 'leaseMs' | 'schedule' | 'defer' | 'exclusive'>, object: { env: unknown; ctx: DurableObjectState }) => RunEngine

/**
 * A run's Durable Object: its record, event log, execution and alarm (background attempts, expiry,
 * retention), every call handed to its engine; the RPC methods `createDurableObjectRunHost` calls.
 */
// A named class: the .d.ts cannot carry an anonymous class extending DurableObject (ctx and env are protected).
export class ToolRunObject extends DurableObject {
  readonly engine: RunEngine
  readonly #mounted: ReturnType<RunObjectMount> | undefined
  readonly #outbox: ReturnType<typeof durableObjectIndexOutbox> | undefined
  #index?: SqlRunIndex

  constructor(ctx: DurableObjectState, env: unknown, engineOf: EngineOf, options: ToolRunObjectOptions, mount?: RunObjectMount) {
    super(ctx, env as never)
    const mounted = (this.#mounted = mount?.(ctx.storage))
    // Each run of a principal is listed in the object named `index:<principal>` of its own namespace.
    const namespace = (env as Record<string, DurableObjectNamespace | undefined> | undefined)?.[runsBinding]
    // Each entry goes through this object's outbox, stored with the run: sent after its commit, again from the alarm until the index has it.
    const index = namespace && createDurableObjectRunIndex(namespace)
    const outbox = (this.#outbox = index && durableObjectIndexOutbox(ctx.storage, index.put))
    this.engine = engineOf({
      store: (mounted?.store ?? ((store) => store))(createDurableObjectRunStore(ctx.storage, ...(outbox ? [outbox.writes] : []))),
      ...(index && outbox ? { index: { put: outbox.send, remove: (principal, entry) => (outbox.clear(), index.remove(principal, entry)) } } : {}),
      ttlMs: millisecondsOf(options.runTtlMs, env, 'TOOLROUTE_RUN_TTL_MS'),
      retentionMs: millisecondsOf(options.retentionMs, env, 'TOOLROUTE_RETENTION_MS'),
      runLimits: options.runLimits,
      leaseMs: millisecondsOf(options.leaseMs, env, 'TOOLROUTE_LEASE_MS'),
      // One object holds one run, which no other process executes.
      exclusive: true,
      // The run's state names the one time it next needs (expiry, retention, the next background
      // attempt, the end of a running step's lease): each call replaces the object's single alarm, no later than an unsent index entry's retry.
      schedule: (_runId, at) => (mounted?.schedule ?? ((next: number) => ctx.storage.setAlarm(next)))(Math.min(at, outbox?.dueAt() ?? at)),
      defer: (work) => ctx.waitUntil(work.catch(() => {})),
    }, { env, ctx })
  }

  open(run: RunRecord, events: ToolEvent[]): Promise<RpcResult<void>> {
    return rpc(() => this.engine.open(run, events))
  }
  approve(runId: string, caller: RunCaller & { approvalId?: string }): Promise<RpcSegment> {
    return rpc(async () => streamed(await this.engine.approve(runId, caller)))
  }
  decline(runId: string, caller: RunCaller & { reason?: string }): Promise<RpcSegment> {
    return rpc(async () => streamed(await this.engine.decline(runId, caller)))
  }
  resume(runId: string, caller: RunCaller & { resumeData: unknown }): Promise<RpcSegment> {
    return rpc(async () => streamed(await this.engine.resume(runId, caller)))
  }
  cancel(runId: string, caller: RunCaller): Promise<RpcResult<RunRecord>> {
    return rpc(() => this.engine.cancel(runId, caller))
  }
  // Where a background attempt runs (the object's alarm), so an answer stored here wakes the step at once.
  answer(runId: string, caller: RunCaller & { answers: Record<string, ElicitResult> }): Promise<RpcResult<string[]>> {
    return rpc(() => this.engine.answer(runId, caller))
  }
  abortStep(runId: string, caller: RunCaller & { after: number; message: string }): Promise<RpcResult<void>> {
    return rpc(() => this.engine.abortStep(runId, caller))
  }
  get(runId: string, caller: RunCaller & { events?: RunEventPage }): Promise<RpcResult<{ run: RunRecord; events: SequencedEvent[] }>> {
    return rpc(() => this.engine.get(runId, caller))
  }
  follow(runId: string, caller: RunCaller & { after: number }): Promise<RpcResult<ReadableStream<Uint8Array>>> {
    return rpc(async () => {
      const controller = new AbortController()
      const events = await this.engine.follow(runId, { ...caller, signal: controller.signal })
      // The final state is read once the events are over, not when the stream opens.
      const settled = () => this.engine.get(runId, caller).then((state) => state.run)
      return encodeSegmentStream(events, settled, () => controller.abort())
    })
  }

  #runIndex(): SqlRunIndex {
    return (this.#index ??= createSqlRunIndex(this.ctx.storage.sql))
  }
  /** On the object named `index:<principal>`: the principal's run index (`createDurableObjectRunIndex`). */
  indexPut(entry: RunIndexEntry, version?: number): Promise<RpcResult<void>> {
    return rpc(async () => this.#runIndex().put(entry, version))
  }
  indexRemove(runId: string): Promise<RpcResult<void>> {
    return rpc(async () => this.#runIndex().remove(runId))
  }
  indexList(query: RunQuery): Promise<RpcResult<RunIndexPage>> {
    return rpc(async () => this.#runIndex().list(query))
  }

  async alarm(): Promise<void> {
    const runId = storedRunId(this.ctx.storage)
    const sweep = async () => void (runId && (await this.engine.sweep(runId)))
    await this.#outbox?.send()
    await (this.#mounted ? this.#mounted.alarm(sweep) : sweep())
    await this.#outbox?.arm()
  }
}

/**
 * The class of a Worker's run objects, over the engine `engineOf` makes (`createToolRunObject`'s full
 * engine, or `workerFinishedRunStore`'s of runs stored settled). The objects named
 * `index:<principal>` keep run indexes (`createSqlRunIndex`), and each run's object keeps its entry there.
 */
export function createRunObjectClass(engineOf: EngineOf, options: ToolRunObjectOptions = {}, mount?: RunObjectMount): new (ctx: DurableObjectState, env: unknown) => ToolRunObject {
  return class extends ToolRunObject {
    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env, engineOf, options, mount)
    }
  }
}
