import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import type { RunLimits } from './run-limits.ts'
import type { RunRecord } from './run-record.ts'
import type { RunStatus } from '../protocol/call-result.ts'

/** The outcome of a compare-and-set. */
export type TransitionResult =
  | { ok: true; run: RunRecord; events: SequencedEvent[] }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'conflict'; run: RunRecord }

/**
 * Where runs and their event logs live. One contract, one test suite
 * (test/shared/run-store-contract.ts), several backends: memory, Durable Object storage,
 * Workers KV, Deno KV.
 *
 * Sequence numbers start at 1 and grow by one per event of a run; they are the SSE ids and
 * the replay cursor, so a caller that reconnects with `Last-Event-ID` loses and repeats nothing.
 */
export interface RunStore {
  /** Stores a new run with its first events (numbered 1…n). Fails if the run exists. */
  create(run: RunRecord, events: readonly ToolEvent[]): Promise<SequencedEvent[]>
  get(runId: string): Promise<RunRecord | undefined>
  /**
   * Compare-and-set: applies `patch` and appends `events` only when the run's status is one of
   * `from` (and `when`, if given, holds of the stored run), atomically. Exactly-once execution
   * rests on this; `when` is how a lease's holder and whoever finds it lapsed never both win.
   */
  transition(runId: string, from: readonly RunStatus[], patch: Partial<RunRecord>, events?: readonly ToolEvent[], when?: (run: RunRecord) => boolean): Promise<TransitionResult>
  /**
   * Appends events to an existing run, numbered after the last. With `limits`, a batch that would
   * take the log past one of them is refused whole (a `ToolrouteError` naming the limit; nothing of
   * it is stored, nothing stored before is touched). `create` and `transition` take no limits:
   * their events are a run's own few (its input, a step's start, its end).
   */
  append(runId: string, events: readonly ToolEvent[], limits?: RunLimits): Promise<SequencedEvent[]>
  /** Events with `seq > after`, in order; at most `limit` of them (a page), when given. */
  events(runId: string, after: number, limit?: number): Promise<SequencedEvent[]>
  /**
   * How large the run's log is: its number of events (the last `seq`, 0 for none or an unknown
   * run) and the bytes of their UTF-8 JSON (`jsonBytes`), what `RunLimits` count.
   */
  size(runId: string): Promise<{ events: number; bytes: number }>
  delete(runId: string): Promise<void>
  /** Whether transitions are atomic across every process (false for Workers KV). */
  readonly exactlyOnce: boolean
}
