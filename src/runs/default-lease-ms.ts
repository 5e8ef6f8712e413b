/** How long a call's lease on its run or key lasts unrenewed (SPEC §12). Its own file: a Worker without runs leases keys. */
export const defaultLeaseMs = 30_000
