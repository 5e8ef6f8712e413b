// Types of source-aliases.mjs, for the tests that import it.
export const entrySources: Record<string, string>
export function sourceAliases(): Record<string, string>
