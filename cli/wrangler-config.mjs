import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseJsonc, printParseErrorCode } from 'jsonc-parser'
import { parse as parseToml } from 'smol-toml'

/** The files wrangler reads its config from, in the order it looks for them. */
export const wranglerConfigFiles = ['wrangler.json', 'wrangler.jsonc', 'wrangler.toml']

/**
 * A project's wrangler config, parsed: `{ file, text, config }` of the first of
 * `wrangler.json`, `wrangler.jsonc` and `wrangler.toml` that exists (wrangler's own order), or
 * `undefined` when there is none. A file that does not parse throws, naming the file and line.
 */
export function readWranglerConfig(root) {
  const file = wranglerConfigFiles.find((name) => existsSync(join(root, name)))
  if (!file) return undefined
  const text = readFileSync(join(root, file), 'utf8')
  if (file === 'wrangler.toml') {
    try {
      return { file, text, config: parseToml(text) }
    } catch (error) {
      throw new Error(`${file}:${error.line ?? 1}: ${String(error.message).split('\n')[0]}`)
    }
  }
  const errors = []
  const config = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false })
  if (errors.length > 0) throw new Error(`${file}:${lineAt(text, errors[0].offset)}: ${printParseErrorCode(errors[0].error)}`)
  if (config === null || typeof config !== 'object' || Array.isArray(config)) throw new Error(`${file}:1: not an object`)
  return { file, text, config }
}

/** The 1-based line of a character offset. */
export function lineAt(text, offset) {
  return text.slice(0, Math.max(0, offset)).split('\n').length
}
