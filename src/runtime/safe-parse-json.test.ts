import { describe, expect, it } from 'vitest'
import { safeParseJson } from './safe-parse-json.ts'
import { maxJsonDepth } from '../protocol/json-depth.ts'

describe('safeParseJson', () => {
  it('refuses a body nested deeper than the limit with INVALID_JSON (found by the hardening suite: it broke event streams)', () => {
    for (const text of ['['.repeat(3000) + ']'.repeat(3000), '{"a":'.repeat(maxJsonDepth + 1) + '1' + '}'.repeat(maxJsonDepth + 1)]) {
      const parsed = safeParseJson(text)
      expect(parsed.ok).toBe(false)
      if (!parsed.ok) expect(parsed.error).toMatchObject({ code: 'INVALID_JSON', message: expect.stringContaining(`${maxJsonDepth} levels`) })
    }
  })

  it('accepts nesting up to the limit, and brackets inside strings do not count', () => {
    const deepest = '['.repeat(maxJsonDepth) + ']'.repeat(maxJsonDepth)
    expect(safeParseJson(deepest).ok).toBe(true)
    const inStrings = JSON.stringify({ text: '[{'.repeat(5000), escaped: '\\"[[[' + '['.repeat(1000) })
    expect(safeParseJson(inStrings)).toEqual({ ok: true, value: JSON.parse(inStrings) })
  })
})

describe('safeParseJson depth scan and strings', () => {
  it('counts brackets after strings with escaped quotes and backslashes correctly', () => {
    const inside = '"a\\\\"' // the string a\ (an escaped backslash before the closing quote)
    const deep = '['.repeat(maxJsonDepth) + inside + ',"\\"[[["' + ']'.repeat(maxJsonDepth)
    expect(safeParseJson(deep).ok).toBe(true)
    const deeper = '['.repeat(maxJsonDepth + 1) + inside + ']'.repeat(maxJsonDepth + 1)
    expect(safeParseJson(deeper).ok).toBe(false)
  })
})
