import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { Checked } from './validate-call.ts'
import { maxJsonDepth, nestsTooDeep } from '../protocol/json-depth.ts'

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
  // A primitive cannot nest: it skips the scan.
  if (typeof value === 'object' && value !== null && nestsTooDeep(text)) {
    return { ok: false, error: new ToolrouteError('INVALID_JSON', `${what} is not valid JSON here: it nests deeper than ${maxJsonDepth} levels`) }
  }
  return { ok: true, value }
}
