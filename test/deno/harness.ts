// What the Deno tests share: the example tools of tools/ (found as `deno task dev` finds them),
// a few fixtures, and an in-process app over a Deno KV database of its own.
import { createTool, type AnyTool } from 'toolroute'
import { createDenoToolApp, loadTools, type DenoToolApp, type DenoToolAppOptions } from 'toolroute/deno'
import { z } from 'zod'

export const repoRoot = new URL('../../', import.meta.url)
export const { tools: exampleTools } = await loadTools(new URL('tools/', repoRoot))

/** How often each key was executed: exactly-once is counted, not assumed. */
export const executions = new Map<string, number>()

/** Needs approval; counts its executions by `key`. */
export const countedApproval = createTool({
  id: 'counted-approval',
  description: 'Needs approval, then counts how often it ran',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ key: z.string(), executions: z.number() }),
  requireApproval: true,
  execute: async ({ key }) => {
    const count = (executions.get(key) ?? 0) + 1
    executions.set(key, count)
    return { key, executions: count }
  },
})

/** Suspends once; counts its resumed executions by `key`. */
export const countedSuspend = createTool({
  id: 'counted-suspend',
  description: 'Suspends for a code, then counts how often it resumed',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ key: z.string(), code: z.string(), executions: z.number() }),
  suspendSchema: z.object({ ask: z.string() }),
  resumeSchema: z.object({ code: z.string().length(4) }),
  execute: async ({ key }, { resumeData, suspend }) => {
    if (!resumeData) return suspend({ ask: 'code?' })
    const count = (executions.get(key) ?? 0) + 1
    executions.set(key, count)
    return { key, code: resumeData.code, executions: count }
  },
})

export const testTools: AnyTool[] = [...exampleTools, countedApproval, countedSuspend]

export interface AppHandle extends DenoToolApp {
  kv: Deno.Kv
  /** `app.request` with JSON helpers: `json` sets the body and its content type. */
  request(path: string, init?: RequestInit & { json?: unknown; sse?: boolean }): Promise<Response>
}

/** Runs `fn` against a fresh app over `kvPath` (default: a database in memory), then closes it. */
export async function withApp(fn: (handle: AppHandle) => Promise<void>, options: Partial<DenoToolAppOptions> & { kvPath?: string } = {}): Promise<void> {
  const { kvPath = ':memory:', ...appOptions } = options
  const kv = await Deno.openKv(kvPath)
  try {
    const built = await createDenoToolApp({ tools: testTools, ...appOptions, kv })
    const request = (path: string, init: RequestInit & { json?: unknown; sse?: boolean } = {}) => {
      const { json, sse, ...rest } = init
      const headers = new Headers(rest.headers)
      if (json !== undefined) headers.set('content-type', 'application/json')
      if (sse) headers.set('accept', 'text/event-stream')
      return Promise.resolve(
        built.app.request(path, { method: json !== undefined ? 'POST' : (rest.method ?? 'GET'), ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) }),
      )
    }
    await fn({ ...built, kv, request })
  } finally {
    kv.close()
  }
}

/** Polls `read` until `done` holds, for work that finishes on its own (background runs, sweeps). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  while (true) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
