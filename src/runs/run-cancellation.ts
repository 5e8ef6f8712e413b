/**
 * The abort reason of a cancellation. An execution aborted by it stores nothing more: the
 * cancellation already wrote the run's last events, and a replay must end where the live stream did.
 */
const cancelledMarker = Symbol.for('toolroute.run-cancelled')

export const cancellation = (): Error => Object.assign(new Error('The run was cancelled'), { [cancelledMarker]: true })

export const isCancelled = (signal: AbortSignal): boolean =>
  signal.aborted && (signal.reason as Record<symbol, unknown> | undefined)?.[cancelledMarker] === true
