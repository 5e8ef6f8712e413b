// Drives durable runs through the real Worker (SELF) and peeks at their Durable Objects.
import { env, SELF } from 'cloudflare:test'
import type { ToolEvent } from 'toolroute'
import { readSse, sseMessages, type SseMessage } from '../fixtures/read-sse.ts'
import { callTool, origin } from './http-client.ts'

/** Headers of a principal: runs belong to a hash of the `authorization` header. */
export const as = (name: string) => ({ authorization: `Bearer ${name}` })

export interface RunRequestOptions {
  auth?: string
  sse?: boolean
  headers?: Record<string, string>
  /** Route prefix: '' for Durable Objects, '/kv' for the KV-backed app. */
  base?: string
}

const headersOf = (options: RunRequestOptions) => ({
  ...(options.auth ? as(options.auth) : {}),
  ...(options.sse ? { accept: 'text/event-stream' } : {}),
  ...options.headers,
})

/** `POST /tools/:toolId` as a principal. */
export function call(toolId: string, input: unknown, options: RunRequestOptions = {}): Promise<Response> {
  if (options.base) {
    return SELF.fetch(`${origin}${options.base}/tools/${toolId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(options) },
      body: JSON.stringify(input),
    })
  }
  return callTool(toolId, input, { headers: headersOf(options), ...(options.sse ? { sse: true } : {}) })
}

/** A call that must answer JSON with a run id; returns its body. */
export async function start(toolId: string, input: unknown, options: RunRequestOptions = {}): Promise<Record<string, any> & { runId: string }> {
  const response = await call(toolId, input, { ...options, sse: false })
  const body = (await response.json()) as Record<string, any> & { runId: string }
  if (response.status !== 202) throw new Error(`expected 202 from ${toolId}, got ${response.status}: ${JSON.stringify(body)}`)
  return body
}

/** `POST /runs/:runId/<action>` with an optional JSON body (a string is sent as is). */
export function runAction(runId: string, action: 'approve' | 'decline' | 'resume' | 'cancel', body?: unknown, options: RunRequestOptions = {}): Promise<Response> {
  return SELF.fetch(`${origin}${options.base ?? ''}/runs/${runId}/${action}`, {
    method: 'POST',
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headersOf(options) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  })
}

/** `GET /runs/:runId`. */
export function getRun(runId: string, options: RunRequestOptions = {}): Promise<Response> {
  return SELF.fetch(`${origin}${options.base ?? ''}/runs/${runId}`, { headers: headersOf(options) })
}

/** `GET /runs/:runId/events`, from `Last-Event-ID` or `?after=`. */
export function runEvents(runId: string, options: RunRequestOptions & { lastEventId?: number; after?: number; view?: string } = {}): Promise<Response> {
  const query = new URLSearchParams()
  if (options.after !== undefined) query.set('after', String(options.after))
  if (options.view) query.set('view', options.view)
  const suffix = query.size ? `?${query}` : ''
  return SELF.fetch(`${origin}${options.base ?? ''}/runs/${runId}/events${suffix}`, {
    headers: { ...headersOf(options), ...(options.lastEventId !== undefined ? { 'last-event-id': String(options.lastEventId) } : {}) },
  })
}

/** Sequenced events of a whole SSE response. */
export async function sequenced(response: Response): Promise<{ entries: { id: number; event: ToolEvent }[]; done: boolean }> {
  const { messages, done } = await readSse(response)
  return { entries: entriesOf(messages), done }
}

export function entriesOf(messages: SseMessage[]): { id: number; event: ToolEvent }[] {
  return messages.filter((message) => message.data !== '[DONE]').map((message) => ({ id: Number(message.id), event: JSON.parse(message.data) as ToolEvent }))
}

/** Reads an SSE response message by message; `stop()` disconnects. */
export function liveSse(response: Response) {
  const reader = sseMessages(response.body!).getReader()
  return {
    async next(): Promise<SseMessage | undefined> {
      const { done, value } = await reader.read()
      return done ? undefined : value
    },
    stop: () => reader.cancel(),
  }
}

/** The Durable Object that holds a run. */
export function runObject(runId: string): DurableObjectStub {
  return env.TOOLROUTE_RUNS.get(env.TOOLROUTE_RUNS.idFromName(runId))
}

interface CounterStub {
  increment(): Promise<number>
  count(): Promise<number>
}

/** The execution counter the fixture tools increment (test/workers/fixture-objects.ts). */
export function counter(key: string): CounterStub {
  return env.EXECUTION_COUNTER.get(env.EXECUTION_COUNTER.idFromName(key)) as unknown as CounterStub
}

/** A fresh key for counters and gates. */
export const uniqueKey = (label: string) => `${label}-${crypto.randomUUID()}`

/** The error body of a failed response. */
export async function errorOf(response: Response): Promise<{ status: number; code: string; message: string; issues?: unknown[] }> {
  const body = (await response.json()) as { error: { code: string; message: string; issues?: unknown[] } }
  return { status: response.status, ...body.error }
}
