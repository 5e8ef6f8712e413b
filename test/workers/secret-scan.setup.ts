// Setup file of the workerd projects: the secret canary over the whole suite. Every response a
// test gets from the test Worker through SELF is passed on to the test as it is read, and what
// the test read is scanned for the canary's secret (test/shared/secret-scan.ts decides what must
// not carry it). The file fails in its last hook if the secret appeared; the counts go to the
// file's task meta, which test/workers/secret-scan.global.ts adds up and prints at the end.
import { exports } from 'cloudflare:workers'
import { afterAll } from 'vitest'
import { canarySecret } from '../fixtures/canary-tools.ts'
import { emptyTally, scanExchange, type Exchange, type ScanTally } from '../shared/secret-scan.ts'

declare module 'vitest' {
  interface TaskMeta {
    secretScan?: ScanTally
  }
}

const tally = emptyTally()
/** Responses not read to their end yet (a test that stopped reading): scanned in the last hook. */
const unfinished = new Set<() => void>()

// SELF (cloudflare:test) is a proxy that reads `fetch` off `exports.default`, the loopback to the
// test Worker, on every use: the wrapper goes there.
const self = (exports as unknown as { default: Fetcher }).default
const fetchOfSelf = self.fetch.bind(self)
self.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const request = new Request(input as RequestInfo, init as RequestInit)
  const carriedSecret =
    request.url.includes(canarySecret) ||
    [...request.headers].some(([, value]) => value.includes(canarySecret)) ||
    (typeof init?.body === 'string' && init.body.includes(canarySecret))
  const response = await fetchOfSelf(request)
  if (!response.body || response.status === 101 || response.webSocket) return response
  const exchange: Omit<Exchange, 'text'> = { method: request.method, url: request.url, carriedSecret, status: response.status, contentType: response.headers.get('content-type') ?? '' }
  const decoder = new TextDecoder()
  const parts: string[] = []
  const scan = () => {
    if (!unfinished.delete(scan)) return
    scanExchange(tally, { ...exchange, text: parts.join('') + decoder.decode() })
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

afterAll(({}, file) => {
  for (const scan of [...unfinished]) scan()
  file.meta.secretScan = tally
  if (tally.leaks.length) throw new Error(`the canary's secret appeared where it must not, ${tally.leaks.length} times:\n${tally.leaks.slice(0, 10).join('\n')}`)
})
