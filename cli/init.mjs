import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, relative, resolve } from 'node:path'

const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const range = (version) => `^${String(version).replace(/^[\^~]/, '')}`
/** The exact versions toolroute is tested with: the test toolchain (plugin, miniflare, vite) moves in lockstep. */
const pinned = (name) => String(own.devDependencies[name]).replace(/^[\^~]/, '')

/** The project's first tool, tools/greet.ts (bench/bundle/greet-sources.mjs bundles it too). */
export const exampleTool = `import { createTool } from 'toolroute'
import { z } from 'zod'

/** Served as POST /tools/greet: try it with \`npm run dev\`, then curl (see README.md). */
export const greet = createTool({
  id: 'greet',
  description: 'Say hello to someone',
  inputSchema: z.object({ name: z.string().min(1) }),
  outputSchema: z.object({ message: z.string() }),
  execute: async ({ name }) => ({ message: \`Hello, \${name}!\` }),
})
`

const wranglerToml = (name) => `# Written by \`toolroute init\`. \`npm run dev\` serves tools/ on local workerd; \`npm run deploy\` ships it.
name = "${name}"
main = ".toolroute/worker.ts"
compatibility_date = "2026-11-24"
# From this date on Node.js compatibility is on without a flag: process.env holds the vars and secrets
# (.dev.vars locally, \`wrangler secret put\` in production), read as on Deno and Node (docs/secrets.md).
# Minified (a one-tool Zod Worker deploys at about half its size), with source maps uploaded so
# stack traces in the dashboard stay readable. No keep_names: esbuild would wrap every closure a
# call creates in a __name() call, paid on every call.
minify = true
upload_source_maps = true
keep_names = false

# \`toolroute build\` compiles tools/ (and toolroute.config.ts) into .toolroute/ before every
# \`wrangler dev\` and \`wrangler deploy\`. \`toolroute dev\` (npm run dev) watches tools/ itself,
# rebuilds once per save and then touches .toolroute/dev/, which reloads wrangler (this hook then
# returns at once).
[build]
command = "npx toolroute build"
watch_dir = [".toolroute/dev"]

# Runs that wait for a human (approval, suspend) or run in the background: one object per run.
[[durable_objects.bindings]]
name = "TOOLROUTE_RUNS"
class_name = "ToolRunObject"

# MCP: 2025 sessions (one object per Mcp-Session-Id) and 2026-07-28 calls that ask the user mid-call.
# Remove the binding to serve MCP statelessly.
[[durable_objects.bindings]]
name = "TOOLROUTE_MCP"
class_name = "McpSessionObject"

# Idempotency-Key: one object per principal and key, so a retried call never runs twice.
[[durable_objects.bindings]]
name = "TOOLROUTE_IDEMPOTENCY"
class_name = "IdempotencyObject"

[[migrations]]
tag = "v1"
new_sqlite_classes = ["ToolRunObject", "McpSessionObject", "IdempotencyObject"]
`

// The Workers runtime's types and the project's own `env` (bindings, vars) come from
// `wrangler types` (npm run types, also run by npm run check): worker-configuration.d.ts; `node` types
// `process.env` (each var and secret named there; \`wrangler types\` asks for @types/node until it is installed).
const tsconfig = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2023"],
    "module": "ESNext",
    "moduleResolution": "bundler",
    "strict": true,
    "skipLibCheck": true,
    "noEmit": true,
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true,
    "types": ["./worker-configuration.d.ts", "node"]
  },
  "include": ["tools", "test", "toolroute.config.ts", ".toolroute/tools.ts"]
}
`

/** vitest.config.ts: the tests run in workerd behind the Worker entry \`toolroute build\` writes. */
export const vitestConfig = `import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { cloudflareTest } from '@cloudflare/vitest-plugin'
import { defineConfig, type Plugin } from 'vitest/config'

// The Worker under test is .toolroute/worker.ts, which \`toolroute build\` writes from tools/: built
// before the tests start, and again when a tool changes while \`npx vitest\` watches.
const cli = createRequire(import.meta.url).resolve('toolroute/package.json').replace(/package\\.json$/, 'cli/toolroute.mjs')
const build = () => execFileSync(process.execPath, [cli, 'build'], { stdio: 'inherit' })
const toolrouteBuild: Plugin = {
  name: 'toolroute-build',
  configureServer(server) {
    server.watcher.on('change', (file) => {
      if (!/[\\\\/]tools[\\\\/]|toolroute\\.config\\.ts$/.test(file)) return
      try {
        build()
      } catch {
        // toolroute printed the file and line; the tests run on the last good build meanwhile.
      }
    })
  },
}
build()

export default defineConfig({
  plugins: [toolrouteBuild, cloudflareTest({ wrangler: { configPath: './wrangler.toml' }, miniflare: { cf: false } })],
  // fsModuleCache off: with it on, the modules workerd runs come without their source maps, and a
  // tool's stack trace names the transformed line, not the one in tools/.
  test: { include: ['test/**/*.test.ts'], testTimeout: 30_000, fsModuleCache: false },
})
`

/** test/greet.test.ts: the example tool over the Worker's routes, in workerd, and through \`runTool\`. */
export const exampleTest = `import { createTestClient, runTool } from 'toolroute/testing'
import { describe, expect, it } from 'vitest'
import type { Tools } from '../.toolroute/tools.ts'
import { greet } from '../tools/greet.ts'

// The Worker \`toolroute build\` writes, running in workerd with its Durable Objects.
const client = createTestClient<Tools>()

describe('greet', () => {
  it('says hello over POST /tools/greet', async () => {
    const result = await client.call('greet', { name: 'Ada' })
    expect(result).toMatchObject({ status: 'completed', output: { message: 'Hello, Ada!' } })
  })

  it('refuses an empty name before execute runs', async () => {
    const result = await runTool(greet, { name: '' })
    expect(result).toMatchObject({ status: 'failed', error: { code: 'INPUT_VALIDATION_FAILED' } })
  })
})
`

const readme = (name) => `# ${name}

Tools served by [toolroute](https://www.npmjs.com/package/toolroute): every tool exported by a file in
\`tools/\` is a route on Cloudflare Workers (JSON or Server-Sent Events), an MCP tool, and a typed client call.

\`\`\`sh
npm install
npm run dev        # toolroute dev: local workerd on http://localhost:8787, rebuilt on every save
curl -s localhost:8787/tools/greet -H 'content-type: application/json' -d '{"name":"Ada"}'
npm test           # vitest in workerd (test/*.test.ts), after toolroute build
npm run check      # wrangler types, toolroute build and tsc --noEmit
npm run deploy     # toolroute deploy (npx wrangler login first; --dry-run to bundle only)
\`\`\`

Tests use \`toolroute/testing\` (\`createTestClient\`, \`runTool\`): see \`test/greet.test.ts\`.
Options go in \`toolroute.config.ts\` (\`export default defineConfig({ ... })\` from \`toolroute/workers\`).
`

const gitignore = `node_modules/
.toolroute/
.wrangler/
.dev.vars
`

/** `toolroute init [dir]`: writes a new project; refuses to write over one. Returns the exit status. */
export function init(target) {
  const dir = resolve(target)
  const taken = ['package.json', 'tools', 'wrangler.toml'].filter((name) => existsSync(join(dir, name)))
  if (taken.length > 0) {
    console.error(`toolroute: ${relative(process.cwd(), dir) || '.'} already holds ${taken.join(', ')}: init writes a new project (pick an empty directory)`)
    return 1
  }
  const name = basename(dir).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'toolroute-app'
  const packageJson = {
    name,
    private: true,
    type: 'module',
    scripts: {
      dev: 'toolroute dev',
      build: 'toolroute build',
      deploy: 'toolroute deploy',
      test: 'vitest run',
      types: 'wrangler types',
      check: 'wrangler types && toolroute build && tsc --noEmit',
      // What tsc reads and no command has written yet (worker-configuration.d.ts, .toolroute/tools.ts),
      // written by npm install: the project type-checks, and an editor shows no error, from its first minute.
      postinstall: 'wrangler types && toolroute build --lenient',
    },
    dependencies: { toolroute: range(own.version), zod: range(own.dependencies.zod) },
    devDependencies: Object.fromEntries(
      // `node`: the npm package of Node 22 puts its binary first on the PATH of every npm script and npx,
      // so a machine whose default Node is older than 22.12 (wrangler refuses it) needs no other step.
      ['@cloudflare/vitest-plugin', '@types/node', 'miniflare', 'node', 'typescript', 'vite', 'vitest', 'wrangler'].map((name) => [name, pinned(name)]),
    ),
    // One wrangler and one miniflare in the tree (the plugin's own pins would bring a second
    // copy), and the vite this toolchain was tested with.
    overrides: { vite: pinned('vite'), '@cloudflare/vitest-plugin': { wrangler: '$wrangler', miniflare: '$miniflare' } },
  }
  const files = {
    'package.json': `${JSON.stringify(packageJson, null, 2)}\n`,
    'tools/greet.ts': exampleTool,
    'test/greet.test.ts': exampleTest,
    'vitest.config.ts': vitestConfig,
    'wrangler.toml': wranglerToml(name),
    'tsconfig.json': tsconfig,
    '.gitignore': gitignore,
    'README.md': readme(name),
  }
  for (const folder of ['tools', 'test']) mkdirSync(join(dir, folder), { recursive: true })
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  const where = relative(process.cwd(), dir)
  console.log(`toolroute: a new project in ${where || '.'}: ${Object.keys(files).join(', ')}`)
  console.log(`Its scripts run on Node ${pinned('node')} (the \`node\` dev dependency), whatever this machine's default Node is.`)
  console.log(`Next:\n${where ? `  cd ${where}\n` : ''}  npm install\n  npm test\n  npm run dev`)
  return 0
}
