import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { Checked } from './validate-call.ts'

/**
 * The deepest nesting a body may have. `JSON.parse` reads any depth, but everything after it
 * recurses (`JSON.stringify` for an event, validators, `structuredClone`) and overflows the
 * stack a few thousand levels down: the hardening suite found a 3,000-level body breaking an
 * event stream mid-way. No tool input needs more than this.
 */
export const maxJsonDepth = 256

/**
 * Whether JSON text (already parsed, so valid) nests deeper than `maxJsonDepth`. Strings are
 * skipped with `indexOf` (native), so a body that is mostly one long string costs little more
 * than its parse; brackets inside strings do not count.
 */
function tooDeep(text: string): boolean {
  let depth = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === 0x22) {
      let end = index
      // The next quote not escaped by an odd run of backslashes closes the string.
      while (true) {
        end = text.indexOf('"', end + 1)
        if (end < 0) return false
        let backslashes = 0
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++
        if (backslashes % 2 === 0) break
      }
      index = end
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxJsonDepth) return true
    } else if (code === 0x7d || code === 0x5d) depth--
  }
  return false
}

/**
 * V8's parse error without the piece of the text it quotes (`Unexpected token 'C', "{"key":
 * CANARY…" is not valid JSON`): the message travels into display and transcript views as an
 * event's `errorText`, where raw input never may (found by the hardening suite's secret canary).
 */
function withoutSnippet(message: string): string {
  return message.includes('"') ? message.replace(/,?\s*(?:\.\.\.)?"[\s\S]*$/, '') || 'Unexpected token' : message
}

/**
 * JSON a request carries, as a value, or `INVALID_JSON` naming `what` it was (default `Request
 * body`): the one depth-guarded parser of request JSON, for tool input, the framework's own
 * bodies, MCP bodies and JSON headers (`x-request-context`) alike, so nothing deeper than
 * `maxJsonDepth` reaches code that recurses. Empty text is `undefined` (no body).
 */
export function safeParseJson(text: string, what = 'Request body'): Checked<unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // Only text JSON.parse refuses can be blank: no trim on the hot path.
    if (text.trim() === '') return { ok: true, value: undefined }
    return { ok: false, error: new ToolrouteError('INVALID_JSON', `${what} is not valid JSON: ${withoutSnippet((error as Error).message)}`) }
  }
  // Text shorter than twice the limit cannot nest deeper than it, nor can a primitive: those skip the scan.
  if (text.length > 2 * maxJsonDepth && typeof value === 'object' && value !== null && tooDeep(text)) {
    return { ok: false, error: new ToolrouteError('INVALID_JSON', `${what} is not valid JSON here: it nests deeper than ${maxJsonDepth} levels`) }
  }
  return { ok: true, value }
}
