/**
 * The abort reason of a cancellation (or a lease taken over). An execution aborted by it stores
 * nothing more: the cancellation wrote the run's last events, where a replay must end.
 */
const cancelledMarker = Symbol.for('toolroute.run-cancelled')

export const cancellation = (message = 'The run was cancelled'): Error => Object.assign(new Error(message), { [cancelledMarker]: true })

export const isCancelled = (signal: AbortSignal): boolean =>
  signal.aborted && (signal.reason as Record<symbol, unknown> | undefined)?.[cancelledMarker] === true
