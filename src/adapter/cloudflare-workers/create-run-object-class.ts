import { DurableObject } from 'cloudflare:workers'
import type { SequencedEvent, ToolEvent } from '../../protocol/tool-event.ts'
import type { Defer, RunEngine } from '../../runs/create-run-engine.ts'
import type { RunRecord } from '../../runs/run-record.ts'
import type { RunCaller, RunEventPage, RunSegment } from '../../runs/run-host.ts'
import { encodeSegmentStream, toRpcError, type RpcResult } from './segment-stream.ts'
import type { RunStore } from '../../runs/run-store.ts'
import { createDurableObjectRunStore, storedRunId } from './durable-object-run-store.ts'
import { millisecondsOf } from './milliseconds-of.ts'
import type { RunIndexPage } from '../../runs/run-index.ts'
import type { SqlRunIndex } from './sql-run-index.ts'
import { eventPage, type RunLimits } from '../../runs/run-limits.ts'
import type { ElicitResult } from '../../tool/tool-execution-context.ts'

export interface ToolRunObjectOptions {
  /**
   * How long a run may wait for approval or resumption (default 24 h). When the config leaves
   * it unset, the `TOOLROUTE_RUN_TTL_MS` var of the environment is used, if any.
   */
  runTtlMs?: number
  /** How long a settled run is kept (default 24 h); else the `TOOLROUTE_RETENTION_MS` var. */
  retentionMs?: number
  /** How far a run's event log may grow (default 10,000 events and 8 MiB of event data, SPEC §12). */
  runLimits?: RunLimits
  /**
   * How long a call's lease on its run and its key lasts unrenewed before the call is taken as
   * cut off by a crash (default 30 s, renewed every third of it; SPEC §12); else the
   * `TOOLROUTE_LEASE_MS` var. Shorter only to test crash recovery without waiting.
   */
  leaseMs?: number
}

/** What a run object hands the engine it runs: its own storage, alarm and `waitUntil`, and the config's times. */
export interface RunObjectEngineOptions {
  store: RunStore
  ttlMs?: number
  retentionMs?: number
  runLimits?: RunLimits
  leaseMs?: number
  /** One object holds one run, which no other process executes. */
  exclusive: true
  schedule: (runId: string, at: number) => Promise<void>
  defer: Defer
}

/**
 * What a step returns over RPC: the run after its state change, and its events. A step that has
 * ended by the object's next turn (most do: a tool with no I/O of its own) carries its events
 * and final state in the answer itself (`done`), with no stream to pump across; a longer one
 * streams them as NDJSON. A background run's step has no stream: its events are the run's, which
 * a caller that wants them follows (`follow`, from `after`), and a JSON caller never opens.
 */
export type RpcSegment = RpcResult<{
  run: RunRecord
  after: number
  stream: ReadableStream<Uint8Array> | null
  done?: { run: RunRecord; events: SequencedEvent[] }
}>

async function rpc<T>(work: () => Promise<T>): Promise<RpcResult<T>> {
  try {
    return { ok: true, value: await work() }
  } catch (error) {
    return toRpcError(error)
  }
}

/** Resolves on the object's next turn, once what the current one started has run. */
const nextTurn = () => new Promise<undefined>((resolve) => setTimeout(resolve, 0, undefined))

async function streamed(segment: RunSegment) {
  const { run } = segment
  const after = segment.after ?? 0
  if (run.background && run.status === 'running') return { run, after, stream: null }
  // A failed step falls back to the stream, which carries the failure as it always has.
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
  return { run, after, stream: encodeSegmentStream(events, () => segment.settled, () => segment.abort(new Error('The caller disconnected'))) }
}

/** A run's Durable Object: the RPC methods `createDurableObjectRunHost` calls, and its alarm. */
export interface ToolRunObject extends DurableObject {
  readonly engine: RunEngine
  open(run: RunRecord, events: ToolEvent[]): Promise<RpcResult<null>>
  approve(runId: string, caller: RunCaller & { approvalId?: string }): Promise<RpcSegment>
  decline(runId: string, caller: RunCaller & { reason?: string }): Promise<RpcSegment>
  resume(runId: string, caller: RunCaller & { resumeData: unknown }): Promise<RpcSegment>
  cancel(runId: string, caller: RunCaller): Promise<RpcResult<RunRecord>>
  answer(runId: string, caller: RunCaller & { answers: Record<string, ElicitResult> }): Promise<RpcResult<string[]>>
  abortStep(runId: string, caller: RunCaller & { after: number; message: string }): Promise<RpcResult<null>>
  get(runId: string, caller: RunCaller & { events?: RunEventPage }): Promise<RpcResult<{ run: RunRecord; events: SequencedEvent[] }>>
  follow(runId: string, caller: RunCaller & { after: number }): Promise<RpcResult<ReadableStream<Uint8Array>>>
  /** On the object named `index:<principal>`: the principal's run index (`createDurableObjectRunIndex`). */
  indexAdd(runId: string, createdAt: string): Promise<RpcResult<null>>
  indexList(cursor: string | undefined, limit: number): Promise<RpcResult<RunIndexPage>>
  alarm(): Promise<void>
}

/**
 * The Durable Object class that holds one run: its record, its event log, its execution and its
 * alarm (background attempts, expiry, retention). Thin by design: it hands every call to the
 * engine `engineOf` makes over the object's own SQLite storage (`createToolRunObject`'s full run
 * engine, or `workerFinishedRunStore`'s engine of runs stored settled). On the object named
 * `index:<principal>` it keeps that principal's run index with `index` (`createSqlRunIndex`), when
 * given: the index feeds MCP `tasks/list`, which lists background runs only, so a Worker whose
 * tools never run in the background has no use for one.
 */
// The return type is spelled out: the declaration of an anonymous class extending DurableObject
// (whose ctx and env are protected) cannot be emitted into the package's .d.ts.
export function createRunObjectClass(
  engineOf: (options: RunObjectEngineOptions) => RunEngine,
  options: ToolRunObjectOptions = {},
  index?: (sql: SqlStorage) => SqlRunIndex,
): new (ctx: DurableObjectState, env: unknown) => ToolRunObject {
  return class ToolRunObject extends DurableObject {
    readonly engine: RunEngine

    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env as never)
      const vars = (env ?? {}) as Record<string, unknown>
      const ttlMs = millisecondsOf(options.runTtlMs, vars.TOOLROUTE_RUN_TTL_MS)
      const retentionMs = millisecondsOf(options.retentionMs, vars.TOOLROUTE_RETENTION_MS)
      const leaseMs = millisecondsOf(options.leaseMs, vars.TOOLROUTE_LEASE_MS)
      this.engine = engineOf({
        store: createDurableObjectRunStore(ctx.storage),
        ...(ttlMs !== undefined ? { ttlMs } : {}),
        ...(retentionMs !== undefined ? { retentionMs } : {}),
        ...(options.runLimits !== undefined ? { runLimits: options.runLimits } : {}),
        ...(leaseMs !== undefined ? { leaseMs } : {}),
        exclusive: true,
        // One object holds one run, and the run's state names the one time it next needs
        // (expiry, retention, the next background attempt, the end of a running step's lease):
        // each call replaces the object's single alarm.
        schedule: (_runId, at) => ctx.storage.setAlarm(at),
        defer: (work) => ctx.waitUntil(work.catch(() => {})),
      })
    }

    open(run: RunRecord, events: ToolEvent[]): Promise<RpcResult<null>> {
      return rpc(async () => {
        await this.engine.open(run, events)
        return null
      })
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
    abortStep(runId: string, caller: RunCaller & { after: number; message: string }): Promise<RpcResult<null>> {
      return rpc(async () => {
        await this.engine.abortStep(runId, caller)
        return null
      })
    }
    get(runId: string, caller: RunCaller & { events?: RunEventPage }): Promise<RpcResult<{ run: RunRecord; events: SequencedEvent[] }>> {
      return rpc(() => this.engine.get(runId, caller))
    }
    follow(runId: string, caller: RunCaller & { after: number }): Promise<RpcResult<ReadableStream<Uint8Array>>> {
      return rpc(async () => {
        const controller = new AbortController()
        const events = await this.engine.follow(runId, { ...caller, signal: controller.signal })
        // The final state is read once the events are over, not when the stream opens.
        return encodeSegmentStream(events, () => this.engine.get(runId, caller).then((state) => state.run), () => controller.abort())
      })
    }

    #index?: SqlRunIndex
    #runIndex(): SqlRunIndex {
      if (!index) throw new Error('This Worker keeps no run index (none of its tools runs in the background)')
      return (this.#index ??= index(this.ctx.storage.sql))
    }
    indexAdd(runId: string, createdAt: string): Promise<RpcResult<null>> {
      return rpc(async () => {
        this.#runIndex().add(runId, createdAt)
        return null
      })
    }
    indexList(cursor: string | undefined, limit: number): Promise<RpcResult<RunIndexPage>> {
      return rpc(async () => this.#runIndex().list(cursor, limit))
    }

    async alarm(): Promise<void> {
      const runId = storedRunId(this.ctx.storage)
      if (runId) await this.engine.sweep(runId)
    }
  }
}
