import { readBody } from './read-body.ts'

/**
 * A body's bytes, `undefined` past `maxBytes`: kept only for `mcp/read-mcp-body.ts`, which moves
 * to `readBody` when the MCP port lands (delete this file then).
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const read = await readBody(request, { maxBytes, as: 'bytes' })
  return read.ok ? read.body : undefined
}
