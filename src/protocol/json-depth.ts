/**
 * The deepest nesting request JSON may have (SPEC §12): `JSON.parse` reads any depth, but what comes
 * after it recurses (`JSON.stringify`, validators, `structuredClone`) and overflows the stack.
 */
export const maxJsonDepth = 256

/** Whether valid JSON text nests deeper than `maxJsonDepth` (text shorter than twice it cannot); strings are skipped with `indexOf`. */
export function nestsTooDeep(text: string): boolean {
  if (text.length <= 2 * maxJsonDepth) return false
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
