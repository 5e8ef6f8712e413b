import { outputNotJsonMessage, ToolrouteError } from '../errors/toolroute-error.ts'

/**
 * How far a run's event log may grow (SPEC §12 "Bounded runs"): past either limit the run fails
 * with a `tool-output-error` naming it. Transient chunks are never stored and cost nothing.
 */
export interface RunLimits {
  /** Most events a run's log holds (default 10,000). */
  maxEvents?: number
  /** Most bytes of event data a run's log holds: the UTF-8 JSON of its events (default 8 MiB). */
  maxEventBytes?: number
}

/** The limits with their defaults; a limit that is not a positive integer is refused at once. */
export function resolveRunLimits(limits: RunLimits = {}): Required<RunLimits> {
  const resolved = { maxEvents: 10_000, maxEventBytes: 8 * 1024 * 1024, ...limits }
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`runLimits.${name} must be a positive integer, got ${String(value)}`)
  }
  return resolved
}

/** A limit's refusals: the run fails, never retried (they would come again). */
const limitErrors = new WeakSet<object>()
const limitError = (message: string): ToolrouteError => {
  const error = new ToolrouteError('EXECUTION_FAILED', message)
  limitErrors.add(error)
  return error
}

/** An output that is no JSON, refused by the store: as final as a limit. */
export const outputNotJson = (): ToolrouteError => limitError(outputNotJsonMessage)

/** Whether `error` is a limit's refusal (`checkRunLimits`, `checkStoredValue`) of this process. */
export const isRunLimitError = (error: unknown): boolean => typeof error === 'object' && error !== null && limitErrors.has(error)

const encoder = new TextEncoder()
/** The bytes an event's JSON text takes: what `maxEventBytes` counts, the same on every backend. */
export const jsonBytes = (text: string): number => encoder.encode(text).byteLength

/** One stored value's most bytes, under the platform's own limit (a run fails naming it, never SQLITE_TOOBIG). */
export const storedValueLimits = {
  // 2 MB per SQLite-backed Durable Object row, less its other columns; 25 MiB per Workers KV value.
  durableObjectRow: { bytes: 1_900_000, name: 'Durable Object SQLite row (2 MB)' },
  kvValue: { bytes: 25 * 1024 * 1024, name: 'Workers KV value (25 MiB)' },
} as const

/** Throws when `text` is over one stored value's limit; a text short enough to be under it is never measured. */
export function checkStoredValue(text: string, limit: { bytes: number; name: string }): void {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  if (text.length * 3 <= limit.bytes) return
  const bytes = jsonBytes(text)
  if (bytes > limit.bytes) throw limitError(`The run cannot be kept: a value of ${bytes} bytes is over the limit of one ${limit.name}`)
}

/** Throws `append`'s refusal when a log of `size` may not take `added` more events of `addedBytes`. */
export function checkRunLimits(limits: RunLimits | undefined, size: { events: number; bytes: number }, added: number, addedBytes: number): void {
  if (!limits || added === 0) return
  if (limits.maxEvents !== undefined && size.events + added > limits.maxEvents) {
    throw limitError(`The run's event log reached its limit of ${limits.maxEvents} events (runLimits.maxEvents)`)
  }
  if (limits.maxEventBytes !== undefined && size.bytes + addedBytes > limits.maxEventBytes) {
    throw limitError(`The run's event log reached its limit of ${limits.maxEventBytes} bytes of event data (runLimits.maxEventBytes)`)
  }
}

/**
 * How much of a run's log one read moves (SPEC §12: no read fails because a run is large): `size`
 * events by default, at most `maxSize`, within `maxBytes` (at least one), below one RPC's limit.
 */
export const eventPage = { size: 100, maxSize: 1000, maxBytes: 4 * 1024 * 1024 } as const
