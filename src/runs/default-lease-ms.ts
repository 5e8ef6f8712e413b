/**
 * How long a call's lease on its run or its key lasts unrenewed before the call is taken as cut
 * off by a crash (SPEC §12); renewed every third of it. Its own file: a Worker without runs still
 * leases its keys, and bundles no run lifetime for it.
 */
export const defaultLeaseMs = 30_000
