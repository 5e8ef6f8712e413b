const pattern = /^(?!ff)[0-9a-f]{2}-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/

/** A call's trace id (SPEC §17): its W3C `traceparent`'s, read strictly (anything else is no parent), else a new one (a random UUID's low 7 bytes are random, as W3C asks). */
export const traceIdOf = (traceparent: string | null | undefined): string =>
  (typeof traceparent === 'string' && pattern.exec(traceparent)?.[1]) || crypto.randomUUID().replaceAll('-', '')

/** The `traceparent` of an MCP request's `_meta` (2026-07-28 and 2025 alike), when it is a string. */
export const traceparentOf = (meta: { [key: string]: unknown } | undefined): string | undefined => (typeof meta?.traceparent === 'string' ? meta.traceparent : undefined)
