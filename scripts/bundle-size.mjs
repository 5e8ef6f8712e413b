#!/usr/bin/env node
// Prints the Worker bundle's raw and gzip size, and how much of it is toolroute's own code,
// from `wrangler deploy --dry-run --outdir <dir>` (with its metafile when present).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const dir = process.argv[2] ?? ".toolroute/bundle"
const entry = readdirSync(dir).find((name) => name.endsWith('.js'))
if (!entry) throw new Error(`no bundle in ${dir}`)
const code = readFileSync(join(dir, entry))
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
console.log(`bundle ${entry}: ${kib(code.byteLength)} raw, ${kib(gzipSync(code).byteLength)} gzip`)

const metafile = readdirSync(dir).find((name) => name.endsWith('.meta.json') || name === 'bundle-meta.json')
if (metafile) {
  const meta = JSON.parse(readFileSync(join(dir, metafile), 'utf8'))
  const output = Object.entries(meta.outputs).find(([name]) => name.endsWith('.js'))[1]
  const shares = new Map()
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
    const owner = match ? match[1] : path.startsWith('src/') ? 'toolroute (src/)' : path.startsWith('tools/') ? 'tools/' : 'other'
    shares.set(owner, (shares.get(owner) ?? 0) + bytesInOutput)
  }
  for (const [owner, bytes] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${owner.padEnd(32)} ${kib(bytes)}`)
}
