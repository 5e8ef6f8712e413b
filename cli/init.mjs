import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, relative, resolve } from 'node:path'

const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const range = (version) => `^${String(version).replace(/^[\^~]/, '')}`

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
# Minified (a one-tool Zod Worker deploys at about half its size), with source maps uploaded so
# stack traces in the dashboard stay readable. No keep_names: esbuild would wrap every closure a
# call creates in a __name() call, ~10 µs a call on workerd.
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

const tsconfig = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2023", "DOM", "DOM.Iterable"],
    "module": "ESNext",
    "moduleResolution": "bundler",
    "strict": true,
    "skipLibCheck": true,
    "noEmit": true,
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true
  },
  "include": ["tools", "toolroute.config.ts", ".toolroute/tools.ts"]
}
`

const readme = (name) => `# ${name}

Tools served by [toolroute](https://www.npmjs.com/package/toolroute): every tool exported by a file in
\`tools/\` is a route on Cloudflare Workers (JSON or Server-Sent Events), an MCP tool, and a typed client call.

\`\`\`sh
npm install
npm run dev        # toolroute dev: local workerd on http://localhost:8787, rebuilt on every save
curl -s localhost:8787/tools/greet -H 'content-type: application/json' -d '{"name":"Ada"}'
npm test           # toolroute build and tsc --noEmit
npm run deploy     # toolroute deploy (npx wrangler login first; --dry-run to bundle only)
\`\`\`

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
    scripts: { dev: 'toolroute dev', build: 'toolroute build', deploy: 'toolroute deploy', test: 'toolroute build && tsc --noEmit' },
    dependencies: { toolroute: range(own.version), zod: range(own.dependencies.zod) },
    devDependencies: { typescript: range(own.devDependencies.typescript), wrangler: range(own.devDependencies.wrangler) },
  }
  const files = {
    'package.json': `${JSON.stringify(packageJson, null, 2)}\n`,
    'tools/greet.ts': exampleTool,
    'wrangler.toml': wranglerToml(name),
    'tsconfig.json': tsconfig,
    '.gitignore': gitignore,
    'README.md': readme(name),
  }
  mkdirSync(join(dir, 'tools'), { recursive: true })
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  const where = relative(process.cwd(), dir)
  console.log(`toolroute: a new project in ${where || '.'}: ${Object.keys(files).join(', ')}`)
  console.log(`Next:\n${where ? `  cd ${where}\n` : ''}  npm install\n  npm run dev`)
  return 0
}
