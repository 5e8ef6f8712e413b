import type { JSONRPCMessage, RequestId, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import { sha256Hex } from '../idempotency/sha256-hex.ts'

/** A running call: `end` ends a JSON answer that will never come (the SDK sends no response for a cancelled call). */
type InFlight = { transport: WebStandardStreamableHTTPServerTransport; end: () => void }

const isId = (value: unknown): value is RequestId => typeof value === 'string' || typeof value === 'number'

/** The `tools/call` request id of a single-message body, if it is one. */
export function callIdOf(body: unknown): RequestId | undefined {
  const message = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as { method?: unknown; id?: unknown }
  return message.method === 'tools/call' && isId(message.id) ? message.id : undefined
}

/** The request id a single `notifications/cancelled` body names, if it is one. */
export function cancelledIdOf(body: unknown): RequestId | undefined {
  const message = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as { method?: unknown; params?: { requestId?: unknown } }
  return message.method === 'notifications/cancelled' && isId(message.params?.requestId) ? message.params.requestId : undefined
}

/** Where a stateless 2025 call and its cancel meet; none without a principal: anyone could name a request id. */
export async function statelessCallKey(principal: string | null, requestId: RequestId): Promise<string | undefined> {
  if (principal === null) return undefined
  return sha256Hex(`${principal}\0${JSON.stringify(requestId)}`)
}

/** The stateless calls still running here, so a `notifications/cancelled` (a request of its own) reaches the call's server and ends its answer (a stream closes; a JSON one ends with 202). */
export class StatelessCalls {
  readonly #inFlight = new Map<string, Set<InFlight>>()

  /** Registers a running call under `key`, `end` finishing its HTTP answer, until the call untracks it. */
  track(key: string, transport: WebStandardStreamableHTTPServerTransport, end: () => void): () => void {
    const calls = this.#inFlight.get(key) ?? new Set<InFlight>()
    const entry = { transport, end }
    this.#inFlight.set(key, calls.add(entry))
    return () => {
      calls.delete(entry)
      if (calls.size === 0 && this.#inFlight.get(key) === calls) this.#inFlight.delete(key)
    }
  }

  /** Hands a cancel to the calls under `key`; false when none runs here. */
  async cancel(key: string, request: Request, body: unknown, requestId: RequestId): Promise<boolean> {
    const calls = this.#inFlight.get(key)
    if (!calls || calls.size === 0) return false
    for (const call of [...calls]) {
      // A stateless transport takes one request only: the cancel goes in through its `onmessage`.
      call.transport.onmessage?.(body as JSONRPCMessage, { request })
      call.transport.closeSSEStream(requestId)
      call.end()
    }
    return true
  }
}
