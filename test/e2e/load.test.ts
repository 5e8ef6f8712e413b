// Load: waves of 100 concurrent 1 MiB request bodies (acceptances and rejections mixed) against
// a Worker on workerd (direct socket, no proxy), while an idle SSE follower of a silent
// background run stays connected. Every answer is the spec's (no connection reset), the memory
// stays flat wave after wave, and the follower gets a keep-alive at the configured interval, then
// the run's end.
//
// "Flat" is read from the isolate, since workerd's RSS cannot tell a leak from its allocator
// (tcmalloc keeps freed pages: the first waves raise RSS to the peak of ~50 bodies in flight at
// once, several MiB each, and it stays there, or climbs further on a busy machine: +173 MiB over
// waves 2 and 3 in one CI run, against +260 for a planted leak). What the isolate holds after a
// full collection (V8 inspector, `--expose-gc`: the JS heap, workerd's traced objects and the
// ArrayBuffers' backing stores) is back at its baseline after every wave: one request body kept
// alive, as a string or as bytes, would add 1 MiB, 50 a wave. RSS is printed, not held.
//
// Connection resets: a Worker answering before it has read a body its client is still sending
// gets the client's write cut off (EPIPE: workerd closes the connection with the body unread; a
// bare Worker does the same, see README RELIABILITY). toolroute reads an over-limit body of up to
// 4 limits to its end before its 413, so none of these 1 MiB bodies may be reset.
import { readFileSync, readdirSync } from 'node:fs'
import { Miniflare, convertV4MiniflareOptions, type V4MiniflareOptions } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sseMessages, type SseMessage } from '../fixtures/read-sse.ts'
import { startDirectWorkerd, type DirectWorkerd } from './direct-workerd.ts'
import { connectInspector, type WorkerdInspector } from './workerd-inspector.ts'
import { freePort } from './wrangler-dev.ts'

let server: DirectWorkerd
let inspector: WorkerdInspector
beforeAll(async () => {
  const inspectorPort = await freePort()
  server = await startDirectWorkerd('test/e2e/load.wrangler.toml', { inspectorPort, v8Flags: ['--expose-gc'] })
  inspector = await connectInspector(inspectorPort)
}, 120_000)
afterAll(async () => {
  inspector?.close()
  await server?.stop()
})

const mib = 1024 * 1024
const waves = Number(process.env.TOOLROUTE_LOAD_WAVES ?? 3)
const concurrent = 100
/** test/e2e/load-worker.ts's `keepAliveMs` (not imported: that module runs only in workerd). */
const loadKeepAliveMs = 250

/** The resident set of the workerd processes this test process started (MiB). */
function workerdRssMib(): number {
  let kib = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      const name = /^Name:\s+(\S+)/m.exec(status)?.[1]
      const parent = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1])
      if (name === 'workerd' && parent === process.pid) kib += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0)
    } catch {
      // The process ended meanwhile.
    }
  }
  return kib / 1024
}

/** One of the mix: even indexes an acceptance (just under 1 MiB), odd a rejection (just over). */
async function send(index: number): Promise<string> {
  const accept = index % 2 === 0
  const body = JSON.stringify({ location: (accept ? 'x' : 'y').repeat(accept ? mib - 64 : mib + 16) })
  let response: Response
  let text: string
  try {
    response = await fetch(`${server.url}/tools/weather-tool`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    text = await response.text()
  } catch (error) {
    // No HTTP answer at all: the connection was reset.
    return `reset (${(error as Error & { cause?: { code?: string } }).cause?.code ?? 'fetch failed'})`
  }
  const answer = JSON.parse(text) as { output?: { location: string }; error?: { code: string; message: string } }
  if (accept) return response.status === 200 && answer.output?.location.length === mib - 64 ? 'accepted' : `bad acceptance ${response.status}`
  // The spec's shape: the code, a message naming the limit, nothing else.
  const refused = response.status === 413 && answer.error?.code === 'PAYLOAD_TOO_LARGE' && answer.error.message === `Request body is larger than ${mib} bytes` && Object.keys(answer).join() === 'error'
  return refused ? 'refused' : `bad refusal ${response.status} ${text.slice(0, 200)}`
}

/** Follows a silent background run's events, noting when each keep-alive comment arrives. */
async function follow(runId: string) {
  const started = Date.now()
  const keepAlives: number[] = []
  const response = await fetch(`${server.url}/runs/${runId}/events`, { headers: { accept: 'text/event-stream' } })
  expect(response.status).toBe(200)
  const reader = sseMessages(response.body!, () => keepAlives.push(Date.now() - started)).getReader()
  const messages: SseMessage[] = []
  const ended = (async () => {
    while (true) {
      const { done, value } = await reader.read()
      if (done) return messages
      messages.push(value)
    }
  })()
  return { keepAlives, messages, ended, started }
}

describe('load', () => {
  it(`${waves} waves of ${concurrent} concurrent 1 MiB bodies (half over the limit): every answer the spec's, memory flat, an idle follower kept alive`, async () => {
    const start = await fetch(`${server.url}/tools/quiet-background`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 120_000 }) })
    expect(start.status).toBe(202)
    const { runId } = (await start.json()) as { runId: string }
    const follower = await follow(runId)

    for (let warm = 0; warm < 6; warm++) await send(warm)
    const heapBefore = await inspector.heapAfterGcMib()
    const rssBefore = workerdRssMib()
    const outcomes = new Map<string, number>()
    const figures: { ms: number; counts: string; rss: number; heap: number }[] = []
    for (let wave = 0; wave < waves; wave++) {
      const began = Date.now()
      const results = await Promise.all(Array.from({ length: concurrent }, (_, index) => send(index)))
      const counts = new Map<string, number>()
      for (const result of results) counts.set(result, (counts.get(result) ?? 0) + 1)
      for (const [result, count] of counts) outcomes.set(result, (outcomes.get(result) ?? 0) + count)
      const ms = Date.now() - began
      figures.push({ ms, counts: [...counts].map(([result, count]) => `${count} ${result}`).join(', '), heap: await inspector.heapAfterGcMib(), rss: workerdRssMib() })
    }

    // Then a quiet second and a half: keep-alives at the interval, once the isolate is not busy.
    const quietFrom = Date.now() - follower.started
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    const quiet = follower.keepAlives.filter((at) => at > quietFrom)
    const quietGaps = quiet.slice(1).map((at, index) => at - quiet[index]!)
    // The follower sat through every wave; cancelling its run ends its stream.
    const idleMs = Date.now() - follower.started
    const idleKeepAlives = follower.keepAlives.length
    const gaps = follower.keepAlives.slice(1).map((at, index) => at - follower.keepAlives[index]!)
    expect((await fetch(`${server.url}/runs/${runId}/cancel`, { method: 'POST' })).status).toBe(200)
    const messages = await follower.ended

    const total = (prefix: string) => [...outcomes].filter(([outcome]) => outcome.startsWith(prefix)).reduce((sum, [, count]) => sum + count, 0)
    const mb = (value: number) => value.toFixed(0)
    console.log(
      [
        `load: ${waves * concurrent} requests of ~1 MiB (${waves * concurrent} MiB sent), ${total('accepted')} accepted, ${total('refused')} refused (413), ${total('reset')} resets, ${total('bad')} wrong answers`,
        `  before: workerd RSS ${mb(rssBefore)} MiB, isolate after GC ${heapBefore.toFixed(1)} MiB`,
        ...figures.map((wave, index) => `  wave ${index + 1}: ${wave.counts} in ${wave.ms} ms; then RSS ${mb(wave.rss)} MiB, isolate after GC ${wave.heap.toFixed(1)} MiB`),
        `  follower: ${idleKeepAlives} keep-alives in ${(idleMs / 1000).toFixed(1)} s idle at keepAliveMs ${loadKeepAliveMs} (gaps ${Math.min(...gaps)}-${Math.max(...gaps)} ms), ${quiet.length} of them in the last quiet 1.5 s (gaps ${Math.min(...quietGaps)}-${Math.max(...quietGaps)} ms), then ${messages.length} messages to ${messages.at(-1)?.data}`,
      ].join('\n'),
    )

    expect([...outcomes.keys()].sort()).toEqual(['accepted', 'refused'])
    expect(total('accepted')).toBe((waves * concurrent) / 2)
    // Retention: the isolate is back at its baseline after every wave (a kept body: +1 MiB each).
    for (const wave of figures) expect(wave.heap - heapBefore).toBeLessThan(16)
    // Kept alive: never more comments than intervals; under the waves, when 50 bodies at once keep
    // the isolate busy, no silence over 10 s (loose, for a loaded 2-core machine); once quiet, one
    // comment an interval.
    expect(idleKeepAlives).toBeLessThanOrEqual(Math.ceil(idleMs / loadKeepAliveMs) + 1)
    expect(Math.max(...gaps)).toBeLessThan(10_000)
    expect(quiet.length).toBeGreaterThanOrEqual(3)
    expect(quiet.length).toBeLessThanOrEqual(8)
    expect(Math.min(...quietGaps)).toBeGreaterThanOrEqual(loadKeepAliveMs * 0.6)
    // Nothing lost: the follower saw the run to its end.
    expect(messages.at(-1)?.data).toBe('[DONE]')
    expect(messages.map((message) => (message.data === '[DONE]' ? message.data : (JSON.parse(message.data) as { type: string }).type))).toContain('finish')
  }, 150_000)
})

/** `count` concurrent bodies of `bytes` declared, each answered 413 or reset: the outcomes counted. */
async function refusals(url: string, bytes: number, count: number): Promise<Record<string, number>> {
  const body = JSON.stringify({ location: 'z'.repeat(bytes) })
  const outcomes: Record<string, number> = {}
  await Promise.all(
    Array.from({ length: count }, async () => {
      let outcome: string
      try {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        const answer = (await response.json()) as { error?: { code: string } }
        outcome = `${response.status} ${answer.error?.code}`
      } catch (error) {
        outcome = `reset (${(error as Error & { cause?: { code?: string } }).cause?.code ?? 'fetch failed'})`
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
    }),
  )
  return outcomes
}

describe('a body far over the limit', () => {
  // workerd closes a connection whose request body the Worker did not read: a client still
  // writing it gets EPIPE instead of the answer. toolroute reads a body of up to 4 limits before
  // its 413 (the load above); a larger one it refuses unread, as this bare Worker does, and the
  // same resets follow from workerd, not from the refusal: the bare Worker that reads the body
  // to its end first is never reset.
  const bare = `export default { async fetch(request) {
    if (new URL(request.url).pathname === '/drain') { const reader = request.body.getReader(); while (!(await reader.read()).done); }
    return Response.json({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1048576 bytes' } }, { status: 413 })
  } }`
  it('is refused unread beyond 4 limits: a 413, or the reset workerd gives any Worker that answers unread', async () => {
    const miniflare = new Miniflare(convertV4MiniflareOptions({ modules: true, script: bare, compatibilityDate: '2026-11-24', unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] } as V4MiniflareOptions))
    try {
      const bareUrl = String(await miniflare.unsafeGetDirectURL()).replace(/\/$/, '')
      const bytes = 6 * mib
      const toolroute = await refusals(`${server.url}/tools/weather-tool`, bytes, 20)
      const unread = await refusals(`${bareUrl}/`, bytes, 20)
      const drained = await refusals(`${bareUrl}/drain`, bytes, 20)
      console.log(`6 MiB bodies, 20 at once: toolroute ${JSON.stringify(toolroute)}; bare Worker answering unread ${JSON.stringify(unread)}; bare Worker reading first ${JSON.stringify(drained)}`)
      const allowed = ['413 PAYLOAD_TOO_LARGE', 'reset (EPIPE)', 'reset (ECONNRESET)']
      expect(Object.keys(toolroute).filter((outcome) => !allowed.includes(outcome))).toEqual([])
      expect(Object.keys(unread).filter((outcome) => !allowed.includes(outcome))).toEqual([])
      expect(drained).toEqual({ '413 PAYLOAD_TOO_LARGE': 20 })
    } finally {
      await miniflare.dispose()
    }
  }, 60_000)
})
