// Records the responses a test file reads and scans them for the canary's secret
// (secret-scan.ts), for the setup files of the workerd and e2e projects.
import { afterAll } from 'vitest'
import { canarySecrets, emptyTally, scanExchange, type ScanTally } from './secret-scan.ts'

declare module 'vitest' {
  interface TaskMeta {
    secretScan?: ScanTally
  }
}

/** Where a setup file keeps the fetch it wrapped (`Symbol.for`: one key across module instances). */
export const unwrapped = Symbol.for('toolroute.secretScan.unwrappedFetch')

/**
 * Scans the responses of `fetch` (the test Worker's loopback, or Node's fetch) as tests read them:
 * each answer is handed back as it is, its body passed through a recorder, and scanned once read
 * to its end or, for a stream the test stopped reading, in the file's last hook. That hook puts
 * the file's tally in its task meta (secret-scan.global.ts adds them up) and fails the file on a
 * leak. Call it from a setup file.
 */
export function scanResponsesOf(fetch: (request: Request) => Promise<Response>): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  const tally = emptyTally()
  const unfinished = new Set<() => void>()
  afterAll(({}, file) => {
    for (const scan of [...unfinished]) scan()
    file.meta.secretScan = tally
    if (tally.leaks.length) throw new Error(`the canary's secret appeared where it must not, ${tally.leaks.length} times:\n${tally.leaks.slice(0, 10).join('\n')}`)
  })
  return async (input, init) => {
    const request = new Request(input as RequestInfo, init as RequestInit)
    const carries = (text: string) => canarySecrets.some((secret) => text.includes(secret))
    const carriedSecret = carries(request.url) || [...request.headers].some(([, value]) => carries(value)) || (typeof init?.body === 'string' && carries(init.body))
    const response = await fetch(request)
    if (!response.body || response.status === 101 || (response as { webSocket?: unknown }).webSocket) return response
    const exchange = { method: request.method, url: request.url, carriedSecret, status: response.status, contentType: response.headers.get('content-type') ?? '' }
    const decoder = new TextDecoder()
    const parts: string[] = []
    const scan = () => {
      if (unfinished.delete(scan)) scanExchange(tally, { ...exchange, text: parts.join('') + decoder.decode() })
    }
    unfinished.add(scan)
    const recorder = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        parts.push(decoder.decode(chunk, { stream: true }))
        controller.enqueue(chunk)
      },
      flush: scan,
    })
    return new Response(response.body.pipeThrough(recorder), { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}
