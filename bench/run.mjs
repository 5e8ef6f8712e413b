#!/usr/bin/env node
// Benchmark dispatcher: `node bench/run.mjs` runs every bench/*.bench.mjs, one after the other;
// `node bench/run.mjs <name> [args…]` runs bench/<name>.bench.mjs (or bench/<name>.mjs).
// Each benchmark runs in its own Node process, so one cannot warm up or slow down another.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const [name, ...args] = process.argv.slice(2)

function fileOf(benchName) {
  for (const candidate of [`${benchName}.bench.mjs`, `${benchName}.mjs`]) {
    if (existsSync(join(here, candidate))) return join(here, candidate)
  }
  const known = readdirSync(here).filter((file) => file.endsWith('.bench.mjs')).map((file) => file.replace('.bench.mjs', ''))
  console.error(`No benchmark "${benchName}" in bench/ (known: ${known.join(', ') || 'none'})`)
  process.exit(2)
}

const files = name
  ? [fileOf(name)]
  : readdirSync(here).filter((file) => file.endsWith('.bench.mjs')).sort().map((file) => join(here, file))

let failed = 0
for (const file of files) {
  console.log(`\n# ${file.slice(here.length + 1)}`)
  const result = spawnSync(process.execPath, [file, ...args], { stdio: 'inherit', cwd: here })
  if (result.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
