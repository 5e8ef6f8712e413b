// Types of bundle-inputs.mjs, for the tests that import it.
export function outputInputs(metafile: { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> }): Record<string, number>
export function ownerOf(path: string): string
export const pieces: Record<'MCP SDK' | 'src/mcp' | 'classic Zod' | 'zod/mini' | 'playground' | 'run store' | 'JSON Schema validator' | 'webhooks', (path: string) => boolean>
export function bundleShares(metafile: unknown): { owners: [string, number][]; carried: Partial<Record<keyof typeof pieces, number>> }
