import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { Checked } from './validate-call.ts'

/**
 * The deepest nesting a body may have: `JSON.parse` reads any depth, but what comes after it
 * recurses (`JSON.stringify`, validators, `structuredClone`) and overflows the stack.
 */
export const maxJsonDepth = 256

/** Whether valid JSON text nests deeper than `maxJsonDepth`; strings are skipped with `indexOf`. */
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

/** V8's parse error without the text it quotes: the message reaches views as `errorText`, where raw input never may. */
function withoutSnippet(message: string): string {
  return message.includes('"') ? message.replace(/,?\s*(?:\.\.\.)?"[\s\S]*$/, '') || 'Unexpected token' : message
}

/**
 * JSON a request carries, or `INVALID_JSON` naming `what` it was: the one depth-guarded parser of
 * request JSON (tool input, framework and MCP bodies, JSON headers). Empty text is `undefined`.
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
