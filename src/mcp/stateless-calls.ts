import type { JSONRPCMessage, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'

import { sha256Hex } from '../runtime/sha256-hex.ts'

type RequestId = string | number

interface InFlight {
  transport: WebStandardStreamableHTTPServerTransport
  /** Ends a JSON answer that will never come (the SDK sends no response for a cancelled call). */
  end: () => void
}

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

/**
 * Where a stateless 2025 call and its cancel meet: the key of both is the caller's principal and
 * the call's request id (a stateless client has no session to scope ids by, so two of one
 * principal's calls with one id share a key: a cancel reaches both). On Workers both requests
 * are routed to the Durable Object named by the key, so they meet in its memory. A call of no
 * principal has no key: request ids are the client's counters, which anyone could name, so no
 * other request may cancel such a call.
 */
export async function statelessCallKey(principal: string | null, requestId: RequestId): Promise<string | undefined> {
  if (principal === null) return undefined
  return sha256Hex(`${principal}\0${JSON.stringify(requestId)}`)
}

/**
 * The stateless calls of this process (or of one Durable Object) still running, so that a
 * `notifications/cancelled`, which arrives in a request of its own, reaches the call's server:
 * the SDK then aborts the call's `abortSignal`, and its answer ends (an SSE stream closes; a JSON
 * answer, which the SDK never sends for a cancelled call, ends empty with 202).
 */
export class StatelessCalls {
  readonly #inFlight = new Map<string, Set<InFlight>>()

  /** Registers a running call under `key` until `settled` ends; `end` finishes its HTTP answer. */
  track(key: string, transport: WebStandardStreamableHTTPServerTransport, end: () => void, settled: Promise<unknown>): void {
    const calls = this.#inFlight.get(key) ?? new Set<InFlight>()
    const entry = { transport, end }
    calls.add(entry)
    this.#inFlight.set(key, calls)
    void settled.finally(() => {
      calls.delete(entry)
      if (calls.size === 0 && this.#inFlight.get(key) === calls) this.#inFlight.delete(key)
    })
  }

  /** Hands a cancel to the calls under `key`; false when none runs here. */
  async cancel(key: string, request: Request, body: unknown, requestId: RequestId): Promise<boolean> {
    const calls = this.#inFlight.get(key)
    if (!calls || calls.size === 0) return false
    for (const call of [...calls]) {
      // A stateless transport takes one request only: the cancel goes to the server as a message
      // the transport received (the Transport contract's `onmessage`), and the SDK aborts the call.
      call.transport.onmessage?.(body as JSONRPCMessage, { request })
      call.transport.closeSSEStream(requestId)
      call.end()
    }
    return true
  }
}
