/** The 2025-era revisions before tasks (added in 2025-11-25). */
const beforeTasks = new Set(['2024-11-05', '2025-03-26', '2025-06-18'])
/** The revisions that still had JSON-RPC batches (2025-06-18 removed them). */
const withBatches = new Set(['2024-11-05', '2025-03-26'])

/** The revision a 2025-era request speaks: an `initialize`'s, else its `MCP-Protocol-Version`, else 2025-03-26 (spec). */
export function legacyVersionOf(headers: Headers, body: unknown): string {
  const message = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as { method?: unknown; params?: { protocolVersion?: unknown } }
  if (message.method === 'initialize' && typeof message.params?.protocolVersion === 'string') return message.params.protocolVersion
  return headers.get('mcp-protocol-version') ?? '2025-03-26'
}

/** Whether a connection at `version` has tasks; an unknown version is answered with the latest, which has. */
export const hasTasks = (version: string): boolean => !beforeTasks.has(version)

export const allowsBatches = (version: string): boolean => withBatches.has(version)
