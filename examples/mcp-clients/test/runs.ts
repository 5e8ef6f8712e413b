import { inject } from 'vitest'

/** Where the global setup serves the tools (tools-server.global.ts). */
export const base = () => inject('toolrouteUrl')

/** A toolroute run over HTTP, as the MCP caller owns it (a session, or its credential). */
export async function getRun(runId: string, headers: Record<string, string>) {
  const response = await fetch(new URL(`/runs/${runId}`, base()), { headers })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** Polls `read` until `done` holds (or gives up after a few seconds, answering the last read). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs
  let value = await read()
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    value = await read()
  }
  return value
}
