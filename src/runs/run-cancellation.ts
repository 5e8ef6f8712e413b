/**
 * The abort reason of a cancellation (or of a step whose lease was taken over). An execution
 * aborted by it stores nothing more: the cancellation already wrote the run's last events, and a
 * replay must end where the live stream did.
 */
const cancelledMarker = Symbol.for('toolroute.run-cancelled')

export const cancellation = (message = 'The run was cancelled'): Error => Object.assign(new Error(message), { [cancelledMarker]: true })

export const isCancelled = (signal: AbortSignal): boolean =>
  signal.aborted && (signal.reason as Record<symbol, unknown> | undefined)?.[cancelledMarker] === true
