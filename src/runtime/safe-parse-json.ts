import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { Checked } from './validate-call.ts'

/**
 * A request body's text as JSON, or `INVALID_JSON`: the one place that decides what a body that
 * is not JSON answers, for tool input and the framework's own bodies alike. Empty text is
 * `undefined` (no body).
 */
export function safeParseJson(text: string): Checked<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    // Only text JSON.parse refuses can be blank: no trim on the hot path.
    if (text.trim() === '') return { ok: true, value: undefined }
    return { ok: false, error: new ToolrouteError('INVALID_JSON', `Request body is not valid JSON: ${(error as Error).message}`) }
  }
}
