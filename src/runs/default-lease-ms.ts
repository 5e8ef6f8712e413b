/** How long a call's lease on its run or key lasts unrenewed (SPEC §12); its own file, as keys need it without runs. */
export const defaultLeaseMs = 30_000
