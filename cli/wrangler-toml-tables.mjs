/**
 * The tables of a wrangler.toml with their string keys, line by line: the top level first (header
 * `''`), then one entry per `[table]` or `[[array table]]` header, each with the line it starts on.
 * Enough for the few keys toolroute reads (`main`, the Durable Object bindings), not a TOML parser:
 * a `#` ends a line, and only `key = "string"` (or `'string'`) is read.
 */
export function wranglerTomlTables(text) {
  let current = { header: '', line: 1, fields: {} }
  const tables = [current]
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/#.*$/, '').trim()
    if (line.startsWith('[')) {
      tables.push((current = { header: line, line: index + 1, fields: {} }))
      return
    }
    const field = /^([A-Za-z0-9_-]+)\s*=\s*["']([^"']*)["']/.exec(line)
    if (field) current.fields[field[1]] = field[2]
  })
  return tables
}
