// Bundle size per app (issue #14, SPEC §11: an app pays in size only for what it uses). Each app is
// built as `toolroute deploy` builds it (`toolroute build --deploy`: no playground page unless the
// config sets `playground: true`) and bundled by `wrangler deploy --dry-run --minify`, beside a bare
// Hono route with the same schema library:
//   - a one-tool Zod app with `mcp: false` (and the same as a dev build, `toolroute build` under
//     `wrangler dev`, which carries the page; with `playground: true`, which keeps it in a deploy; and
//     with `idempotency: false`: its calls then reach no run, so it bundles no run store),
//   - the same tool in Valibot with `mcp: false`,
//   - the example app (tools/ of the repository, MCP on, every feature),
// against bare Hono + Zod / Valibot (bench/bundle/bare-*-worker.ts: the same tool by hand, no
// toolroute) and bench/http/bare-worker.ts (the http benchmark's baseline, which reaches
// toolroute's createTool through tools/weather-tool.ts: the baseline the issue was filed against).
// Prints raw and gzip KiB, what the bundle carries of MCP / classic Zod / the run store / the JSON
// Schema validator, and the largest packages. `--json` writes the figures to bench/results/.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { execFileSync } from 'node:child_process'
import { bundleShares } from '../scripts/bundle-inputs.mjs'
import { greet } from './bundle/greet-sources.mjs'
import { buildTools, wranglerBundle, wranglerEnv } from './wrangler-bundle.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`

// What `toolroute init` binds (cli/init.mjs), plus the repository's aliases: 'toolroute' is its sources.
const wranglerToml = (name) => `name = "${name}"
main = ".toolroute/worker.ts"
compatibility_date = "2026-11-24"
keep_names = false

[[durable_objects.bindings]]
name = "TOOLROUTE_RUNS"
class_name = "ToolRunObject"

[[durable_objects.bindings]]
name = "TOOLROUTE_MCP"
class_name = "McpSessionObject"

[[durable_objects.bindings]]
name = "TOOLROUTE_IDEMPOTENCY"
class_name = "IdempotencyObject"

[[migrations]]
tag = "v1"
new_sqlite_classes = ["ToolRunObject", "McpSessionObject", "IdempotencyObject"]

[alias]
"toolroute" = "${join(root, 'src/index.ts')}"
"toolroute/tools" = "${join(root, 'src/tools.ts')}"
"toolroute/workers" = "${join(root, 'src/workers.ts')}"
"toolroute/server" = "${join(root, 'src/server.ts')}"
`

/** Writes a one-tool project under bench/.build/bundle/, builds it (for deployment unless `dev`), and returns its wrangler.toml. */
function project(name, library, config, { dev = false } = {}) {
  const dir = join(here, '.build/bundle', name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'tools'), { recursive: true })
  writeFileSync(join(dir, 'tools/greet.ts'), greet[library])
  writeFileSync(join(dir, 'toolroute.config.ts'), `import { defineConfig } from 'toolroute/workers'\n\nexport default defineConfig(${JSON.stringify(config)})\n`)
  writeFileSync(join(dir, 'wrangler.toml'), wranglerToml(name))
  execFileSync(process.execPath, ['cli/toolroute.mjs', 'build', ...(dev ? [] : ['--deploy']), dir], { cwd: root, env: wranglerEnv, stdio: 'pipe' })
  return join(dir, 'wrangler.toml')
}

const apps = [
  { name: 'zod-no-mcp', label: 'Zod app, mcp: false', config: () => project('zod-no-mcp', 'zod', { mcp: false }), bare: 'bare-zod' },
  { name: 'zod-no-mcp-dev', label: 'Zod app, mcp: false, dev build (the page)', config: () => project('zod-no-mcp-dev', 'zod', { mcp: false }, { dev: true }), bare: 'bare-zod' },
  { name: 'zod-no-mcp-page', label: 'Zod app, mcp: false, playground: true', config: () => project('zod-no-mcp-page', 'zod', { mcp: false, playground: true }), bare: 'bare-zod' },
  { name: 'zod-no-mcp-no-keys', label: 'Zod app, mcp: false, idempotency: false', config: () => project('zod-no-mcp-no-keys', 'zod', { mcp: false, idempotency: false }), bare: 'bare-zod' },
  { name: 'valibot-no-mcp', label: 'Valibot app, mcp: false', config: () => project('valibot-no-mcp', 'valibot', { mcp: false }), bare: 'bare-valibot' },
  // The repository's wrangler.toml has a [build] hook (a dev build): `built` skips it, as toolroute deploy does.
  { name: 'example', label: 'example app (tools/, MCP on)', config: () => (buildTools({ deploy: true }), join(root, 'wrangler.toml')), built: true, bare: 'bare-zod' },
  { name: 'bare-zod', label: 'bare Hono + Zod route', config: () => join(here, 'bundle/wrangler.bare-zod.toml') },
  { name: 'bare-http', label: 'bench/http/bare-worker.ts (Hono + Zod + createTool)', config: () => join(here, 'http/wrangler.bare.toml') },
  { name: 'bare-valibot', label: 'bare Hono + Valibot route', config: () => join(here, 'bundle/wrangler.bare-valibot.toml') },
]

const results = {}
for (const app of apps) {
  const { outdir, scriptPath } = wranglerBundle(`bundle/out/${app.name}`, app.config(), { built: app.built })
  const code = readFileSync(scriptPath)
  const { owners, carried } = bundleShares(JSON.parse(readFileSync(join(outdir, 'bundle-meta.json'), 'utf8')))
  results[app.name] = { label: app.label, bare: app.bare, raw: code.byteLength, gzip: gzipSync(code).byteLength, carried, owners }
}

console.log(`\n${'Worker (wrangler deploy --dry-run --minify)'.padEnd(60)}        raw        gzip   gzip vs its bare route`)
for (const [name, result] of Object.entries(results)) {
  const bare = result.bare && results[result.bare]
  const delta = bare ? `${result.gzip >= bare.gzip ? '+' : ''}${kib(result.gzip - bare.gzip)} (${results[result.bare].label})` : ''
  console.log(`  ${result.label.padEnd(60)} ${kib(result.raw).padStart(11)}  ${kib(result.gzip).padStart(10)}   ${delta}`)
}
console.log('\nWhat each carries (raw bytes in the output)')
for (const [name, result] of Object.entries(results)) {
  const pieces = ['MCP SDK', 'src/mcp', 'classic Zod', 'zod/mini', 'run store', 'playground', 'JSON Schema validator'].map((piece) => `${piece} ${result.carried[piece] ? kib(result.carried[piece]) : 'no'}`)
  console.log(`  ${result.label}\n    ${pieces.join(' · ')}\n    ${result.owners.slice(0, 8).map(([owner, bytes]) => `${owner} ${kib(bytes)}`).join(', ')}`)
}

if (process.argv.includes('--json')) {
  mkdirSync(join(here, 'results'), { recursive: true })
  const file = join(here, 'results', `bundle-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
  writeFileSync(file, JSON.stringify(results, null, 2))
  console.log(`\nwrote ${file}`)
}
