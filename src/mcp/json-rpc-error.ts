/** An HTTP answer in JSON-RPC's error shape, for what /mcp refuses before the MCP transport sees the request. */
export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}, id?: unknown, data?: unknown): Response {
  const answered = typeof id === 'string' || typeof id === 'number' ? id : null
  return Response.json({ jsonrpc: '2.0', error: { code, message, data }, id: answered }, { status, headers })
}

/** The session is unknown here (never opened, closed, expired, or another principal's): the client starts a new one. */
export const sessionNotFound = () => jsonRpcError(404, -32001, 'Session not found')
