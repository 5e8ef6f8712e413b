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
 * Where runs and their event logs live: one contract (test/shared/run-store-contract.ts), several
 * backends. Sequence numbers start at 1 and grow by one per event; they are the SSE ids and the
 * replay cursor, so a caller reconnecting with `Last-Event-ID` loses and repeats nothing.
 */
export interface RunStore {
  /** Stores a new run with its first events (numbered 1…n). Fails if the run exists. */
  create(run: RunRecord, events: readonly ToolEvent[]): Promise<SequencedEvent[]>
  get(runId: string): Promise<RunRecord | undefined>
  /**
   * Compare-and-set: applies `patch` and appends `events` atomically, only when the run's status is
   * one of `from` and `when` holds of it. Exactly-once execution (and a lease's one winner) rests on this.
   */
  transition(runId: string, from: readonly RunStatus[], patch: Partial<RunRecord>, events?: readonly ToolEvent[], when?: (run: RunRecord) => boolean): Promise<TransitionResult>
  /**
   * Appends events, numbered after the last. With `limits`, a batch that would take the log past
   * one is refused whole (a `ToolrouteError` naming it). `create` and `transition` take no limits:
   * their events are a run's own few.
   */
  append(runId: string, events: readonly ToolEvent[], limits?: RunLimits): Promise<SequencedEvent[]>
  /** Events with `seq > after`, in order; at most `limit` of them (a page), when given. */
  events(runId: string, after: number, limit?: number): Promise<SequencedEvent[]>
  /** The log's number of events (the last `seq`; 0 for an unknown run) and their UTF-8 JSON bytes (`jsonBytes`). */
  size(runId: string): Promise<{ events: number; bytes: number }>
  delete(runId: string): Promise<void>
  /** Whether transitions are atomic across every process (false for Workers KV). */
  readonly exactlyOnce: boolean
}
