/** What MCP clients accept as a tool name: SEP-986's alphabet, at most 128 characters. */
export const mcpToolNamePattern = /^[A-Za-z0-9_.-]{1,128}$/

const outsideAlphabet = /[^A-Za-z0-9_.-]/gu

/**
 * A tool's MCP name: its id, every character outside the alphabet replaced by `_` (one per code
 * point: `'Lookup order'` → `'Lookup_order'`). cli/build-tools.mjs applies the same rule.
 */
export function mcpToolName(id: string): string {
  return mcpToolNamePattern.test(id) ? id : id.replace(outsideAlphabet, '_')
}
