import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { Checked } from './validate-call.ts'

/**
 * The deepest nesting a body may have. `JSON.parse` reads any depth, but everything after it
 * recurses (`JSON.stringify` for an event, validators, `structuredClone`) and overflows the
 * stack a few thousand levels down: the hardening suite found a 3,000-level body breaking an
 * event stream mid-way. No tool input needs more than this.
 */
export const maxJsonDepth = 256

/** Whether JSON text nests deeper than `maxJsonDepth` (brackets inside strings do not count). */
function tooDeep(text: string): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c) index++ // backslash: skip the escaped character
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x7b || code === 0x5b) {
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
 * A request body's text as JSON, or `INVALID_JSON`: the one place that decides what a body that
 * is not JSON answers, for tool input and the framework's own bodies alike. Empty text is
 * `undefined` (no body).
 */
export function safeParseJson(text: string): Checked<unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // Only text JSON.parse refuses can be blank: no trim on the hot path.
    if (text.trim() === '') return { ok: true, value: undefined }
    return { ok: false, error: new ToolrouteError('INVALID_JSON', `Request body is not valid JSON: ${withoutSnippet((error as Error).message)}`) }
  }
  // Text shorter than twice the limit cannot nest deeper than it: small bodies skip the scan.
  if (text.length > 2 * maxJsonDepth && tooDeep(text)) {
    return { ok: false, error: new ToolrouteError('INVALID_JSON', `Request body is not valid JSON here: it nests deeper than ${maxJsonDepth} levels`) }
  }
  return { ok: true, value }
}
