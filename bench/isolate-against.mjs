// `npm run bench -- isolate --against <checkout>`: the example Worker of this checkout and of
// another (a `git archive` of an earlier commit into /tmp, its node_modules a link to ours), each
// a copy under bench/.build/ that imports only its own src/, bundled into one isolate beside the
// bare route. Both are copies on purpose: the repository's own build shares its `createTool`, Zod
// schemas and weather tool module with the bare route, which made it 6–9 µs a call faster than an
// identical copy (BENCHMARKS §2a); copy against copy differs by ±2.5 µs.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { wranglerEnv } from './wrangler-bundle.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')

/** A copy of `checkout`'s sources, CLI and example tools, built, whose generated modules import its own src/. */
function copyOf(name, checkout) {
  const dir = join(here, '.build', `isolate-${name}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  for (const part of ['src', 'tools', 'cli', 'package.json']) cpSync(join(checkout, part), join(dir, part), { recursive: true })
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  execFileSync('node', ['cli/toolroute.mjs', 'build'], { cwd: dir, env: wranglerEnv, stdio: 'pipe' })
  // One folder below the copy's root, both: 'toolroute' there is the copy's src/, not ours.
  const entries = { toolroute: 'index.ts', 'toolroute/workers': 'workers.ts', 'toolroute/tools': 'tools.ts' }
  for (const folder of ['tools', '.toolroute']) {
    for (const file of readdirSync(join(dir, folder)).filter((file) => file.endsWith('.ts'))) {
      const path = join(dir, folder, file)
      const text = readFileSync(path, 'utf8').replace(/from '(toolroute(?:\/workers|\/tools)?)'/g, (_, entry) => `from '../src/${entries[entry]}'`)
      if (/from 'toolroute/.test(text)) throw new Error(`${path} imports a toolroute entry the copy does not map`)
      writeFileSync(path, text)
    }
  }
  return dir
}

/** Writes the loop Worker and its wrangler.toml for `toolroute` (this checkout), `before` and `bare`; returns the config's path. */
export function prepareAgainst(against) {
  const checkout = resolve(against)
  if (!existsSync(join(checkout, 'src', 'index.ts'))) throw new Error(`--against ${against}: no src/index.ts there (a checkout of toolroute, e.g. git archive <rev> | tar -x -C /tmp/before)`)
  const copies = { toolroute: copyOf('this', root), before: copyOf('before', checkout) }
  const dir = join(here, '.build', 'isolate-against')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const loop = readFileSync(join(here, 'isolate/loop-worker.ts'), 'utf8')
    .replace("import toolroute from '../../.toolroute/worker.ts'", `import toolroute from '${copies.toolroute}/.toolroute/worker.ts'\nimport before from '${copies.before}/.toolroute/worker.ts'`)
    .replace("import bare from '../http/bare-worker.ts'", `import bare from '${join(here, 'http/bare-worker.ts')}'`)
    .replace("import bareMcp from './bare-mcp-worker.ts'", `import bareMcp from '${join(here, 'isolate/bare-mcp-worker.ts')}'`)
    .replace("export { ToolRunObject, McpSessionObject } from '../../.toolroute/worker.ts'", `export { ToolRunObject, McpSessionObject } from '${copies.toolroute}/.toolroute/worker.ts'`)
    .replace("const apps = { toolroute, bare, 'bare-mcp': bareMcp }", "const apps = { toolroute, before, bare, 'bare-mcp': bareMcp }")
  if (!loop.includes('before, bare')) throw new Error('bench/isolate/loop-worker.ts changed: update bench/isolate-against.mjs')
  writeFileSync(join(dir, 'loop-worker.ts'), loop)
  const config = readFileSync(join(here, 'isolate/wrangler.toml'), 'utf8')
    .replace('main = "loop-worker.ts"', `main = "${join(dir, 'loop-worker.ts')}"`)
    .replaceAll('"../../src/', `"${join(root, 'src')}/`)
  writeFileSync(join(dir, 'wrangler.toml'), config)
  return join(dir, 'wrangler.toml')
}
