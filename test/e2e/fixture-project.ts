// A project of its own for an e2e test: its files written into `.toolroute-test-tmp/<name>-<pid>`, a
// wrangler.toml whose [build] runs this repository's `toolroute build` with 'toolroute' aliased to
// the sources, bundled by `wrangler deploy --dry-run` as a deploy would be, and served on workerd.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { startDirectWorkerd, type DirectWorkerd } from './direct-workerd.ts'

const repo = resolve(import.meta.dirname, '../..')

export interface FixtureProject {
  dir: string
  /** Writes the files (tools/, toolroute.config.ts… and the generated wrangler.toml); returns the wrangler.toml. */
  write(): string
  /** Writes the files and serves the project. */
  start(): Promise<DirectWorkerd>
  /** Removes the project (after its server stopped). */
  remove(): void
}

/**
 * With `deploy`, wrangler.toml's [build] runs `toolroute build --deploy` (what `toolroute deploy` builds);
 * with `idempotencyBinding`, it binds the keys' object too, which `toolroute build` requires of a project
 * whose calls honour `Idempotency-Key` (the default; only `idempotency: false` goes without); with
 * `mcpSessions`, it binds TOOLROUTE_MCP, so MCP sessions (every 2025 client's) live in their Durable Object.
 */
export function fixtureProject(name: string, files: Record<string, string>, options: { deploy?: boolean; idempotencyBinding?: boolean; mcpSessions?: boolean; oauthKv?: boolean; nodejsCompat?: boolean; vars?: Record<string, string> } = {}): FixtureProject {
  // The keys' object, for a test of keyed calls (as `toolroute init` binds it).
  const idempotency = options.idempotencyBinding
    ? `
[[durable_objects.bindings]]
name = "TOOLROUTE_IDEMPOTENCY"
class_name = "IdempotencyObject"
`
    : ''
  const dir = join(repo, '.toolroute-test-tmp', `${name}-${process.pid}`)
  const wranglerToml = `name = "toolroute-${name}-fixture"
main = ".toolroute/worker.ts"
compatibility_date = "2026-11-24"
${options.nodejsCompat ? 'compatibility_flags = ["nodejs_compat"]\n' : ''}
[build]
command = "node ${join(repo, 'cli/toolroute.mjs')} build${options.deploy ? ' --deploy' : ''} ${dir}"

# Inside the repository, 'toolroute' is its sources (as in its own wrangler.toml).
[alias]
"toolroute" = "${join(repo, 'src/index.ts')}"
"toolroute/workers" = "${join(repo, 'src/workers.ts')}"

[[durable_objects.bindings]]
name = "TOOLROUTE_RUNS"
class_name = "ToolRunObject"
${idempotency}${options.mcpSessions ? '\n[[durable_objects.bindings]]\nname = "TOOLROUTE_MCP"\nclass_name = "McpSessionObject"\n' : ''}${options.oauthKv ? '\n[[kv_namespaces]]\nbinding = "OAUTH_KV"\nid = "oauth-kv"\n' : ''}
[[migrations]]
tag = "v1"
new_sqlite_classes = ["ToolRunObject"${options.idempotencyBinding ? ', "IdempotencyObject"' : ''}${options.mcpSessions ? ', "McpSessionObject"' : ''}]
${options.vars ? `\n[vars]\n${Object.entries(options.vars).map(([name, value]) => `${name} = ${JSON.stringify(value)}`).join('\n')}\n` : ''}`
  const write = () => {
    for (const [file, contents] of Object.entries({ ...files, 'wrangler.toml': wranglerToml })) {
      mkdirSync(join(dir, file, '..'), { recursive: true })
      writeFileSync(join(dir, file), contents)
    }
    return join(dir, 'wrangler.toml')
  }
  return {
    dir,
    write,
    start: () => startDirectWorkerd(write()),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** A project served for the whole test file: started before its tests, stopped and removed after. */
export function servedFixture(project: FixtureProject): { url: () => string; post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<Response> } {
  let server: DirectWorkerd | undefined
  beforeAll(async () => {
    server = await project.start()
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    project.remove()
  })
  const url = () => server!.url
  return {
    url,
    post: (path, body, headers = {}) => fetch(`${url()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
  }
}
