// The secret canary over the whole suite: every response a test reads is scanned for the
// canary's secret (test/fixtures/canary-tools.ts), except the parts the spec hands the calling
// application raw. Setup files record the responses (scan-responses-of.ts, from
// test/workers/secret-scan.setup.ts around what SELF.fetch calls and test/e2e/secret-scan.setup.ts
// around Node's fetch); this module decides what of each must not carry the secret, and counts.
// (It imports nothing of vitest: secret-scan.global.ts runs where vitest cannot be imported.)
//
// Raw by the spec, so not scanned (as in test/workers/secret-canary.test.ts): a call's or a run's
// `output` and `suspendPayload` in a JSON answer, the payloads of the `raw` view, the
// Mastra-compatible execute route's answer, and an MCP result's `structuredContent`. The raw view
// carries raw payloads, never a message quoting them: its events' `errorText` is scanned.
// Everything else (every display and transcript event, every error body, every MCP result's
// content, `GET /runs`' transcript and error, the listings) must not contain either secret.
import { createParser } from 'eventsource-parser'
import { canaryNumber, canarySecret } from '../fixtures/canary-tools.ts'

/** What must not appear: the canary's secret, and its number as any message would print it. */
export const canarySecrets = [canarySecret, String(canaryNumber)]

export interface ScanTally {
  bodies: number
  events: number
  chars: number
  /** Bodies raw by the spec: left out, but for a raw view's `errorText`s. */
  raw: number
  /** Bodies that came from a request carrying the secret (the canary's own traffic). */
  withSecret: number
  leaks: string[]
}

export const emptyTally = (): ScanTally => ({ bodies: 0, events: 0, chars: 0, raw: 0, withSecret: 0, leaks: [] })

/** The fields of a JSON answer the spec gives the caller raw. */
const rawFields = new Set(['output', 'suspendPayload'])

function withoutRawFields(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => !rawFields.has(key)))
}

/** A JSON-RPC message (or batch) without its results' `structuredContent`. */
function withoutStructuredContent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutStructuredContent)
  const result = (value as { result?: { structuredContent?: unknown } } | null)?.result
  if (!result || typeof result !== 'object' || !('structuredContent' in result)) return value
  const { structuredContent: _, ...rest } = result
  return { ...(value as object), result: rest }
}

const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

function check(tally: ScanTally, what: string, text: string): void {
  tally.chars += text.length
  for (const secret of canarySecrets) {
    const at = text.indexOf(secret)
    if (at >= 0) tally.leaks.push(`${what}: …${text.slice(Math.max(0, at - 160), at + secret.length + 20)}…`)
  }
}

/** The `errorText` of each event of a raw-view stream: the one part of it that is not a raw payload. */
export function errorTextsOf(sse: string): string[] {
  const texts: string[] = []
  const parser = createParser({
    onEvent: (event) => {
      const parsed = parseJson(event.data)
      const errorText = parsed.ok ? (parsed.value as { errorText?: unknown } | null)?.errorText : undefined
      if (typeof errorText === 'string') texts.push(errorText)
    },
  })
  parser.feed(sse)
  parser.feed('\n\n')
  return texts
}

export interface Exchange {
  method: string
  url: string
  /** Whether the request (its URL, headers or body) carried the secret. */
  carriedSecret: boolean
  status: number
  contentType: string
  text: string
}

/** Scans one response the suite read, leaving out what is raw by the spec. */
export function scanExchange(tally: ScanTally, exchange: Exchange): void {
  const url = new URL(exchange.url)
  const path = url.pathname
  const what = `${exchange.method} ${path}${url.search} → ${exchange.status}`
  if (exchange.carriedSecret) tally.withSecret += 1
  const isMcp = /\/mcp\/?$/.test(path)
  if (url.searchParams.get('view') === 'raw' && exchange.contentType.includes('text/event-stream')) {
    tally.raw += 1
    for (const [index, text] of errorTextsOf(exchange.text).entries()) check(tally, `${what} (raw errorText ${index + 1})`, text)
    return
  }
  if ((url.searchParams.get('view') === 'raw' || /\/api\/tools\/[^/]+\/execute$/.test(path)) && exchange.status < 400) {
    tally.raw += 1
    return
  }
  tally.bodies += 1
  if (exchange.contentType.includes('text/event-stream')) {
    let index = 0
    const parser = createParser({
      onEvent: (event) => {
        tally.events += 1
        index += 1
        const parsed = isMcp ? parseJson(event.data) : undefined
        check(tally, `${what} (event ${event.id ?? index})`, parsed?.ok ? JSON.stringify(withoutStructuredContent(parsed.value)) : event.data)
      },
    })
    parser.feed(exchange.text)
    parser.feed('\n\n')
    return
  }
  const parsed = exchange.contentType.includes('json') ? parseJson(exchange.text) : { ok: false as const }
  if (!parsed.ok || exchange.status >= 400) return check(tally, what, exchange.text)
  if (isMcp) return check(tally, what, JSON.stringify(withoutStructuredContent(parsed.value)))
  // A call's or a run's JSON answer: all but its raw fields (GET /runs/:id keeps its transcript).
  if (/\/(tools\/[^/]+|runs\/[^/]+(\/(approve|decline|resume|cancel))?)$/.test(path)) return check(tally, what, JSON.stringify(withoutRawFields(parsed.value)))
  check(tally, what, exchange.text)
}

/** Adds one file's tally to a total. */
export function addTally(total: ScanTally, tally: ScanTally): void {
  total.bodies += tally.bodies
  total.events += tally.events
  total.chars += tally.chars
  total.raw += tally.raw
  total.withSecret += tally.withSecret
  total.leaks.push(...tally.leaks)
}

export const describeTally = (tally: ScanTally, files: number) =>
  `secret canary over the whole suite: ${tally.bodies} response bodies and ${tally.events} SSE events (${(tally.chars / 1e6).toFixed(1)} M characters) scanned in ${files} test files, ${tally.withSecret} of them answers to requests carrying the secret; ${tally.raw} raw-by-spec bodies left out (raw views: but their errorText); ${tally.leaks.length} occurrences of the secret`
