// `toolroute build` on fixture projects: tools that import 'toolroute' from a temporary
// directory inside the repo (so the package resolves as it does for tools/).
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const repo = resolve(import.meta.dirname, '../..')
const tmpRoot = join(repo, '.toolroute-test-tmp')
const cli = join(repo, 'cli/toolroute.mjs')

const created: string[] = []

function project(files: Record<string, string>): string {
  const dir = join(tmpRoot, `build-${process.pid}-${Math.random().toString(36).slice(2)}`)
  created.push(dir)
  for (const [name, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), contents)
  }
  return dir
}

async function buildTools(dir: string, flags: string[] = [], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { WRANGLER_COMMAND: _, ...inherited } = process.env
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, 'build', ...flags, dir], { cwd: repo, env: { ...inherited, ...env } })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string }
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }
  }
}

const tool = (exportName: string, id: string) => `import { createTool } from 'toolroute'
import { z } from 'zod'

export const ${exportName} = createTool({
  id: ${JSON.stringify(id)},
  description: 'A fixture tool',
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => ({ q }),
})
`

afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true })
})

describe('toolroute build', () => {
  it('warns, naming the tool, where a connector directory would refuse it: no title, no read-only/destructive hint (with oauth), an MCP name over 64 characters', async () => {
    const annotated = `import { createTool } from 'toolroute'
import { z } from 'zod'

export const ready = createTool({
  id: 'ready',
  description: 'A tool a directory takes',
  inputSchema: z.object({}),
  mcp: { annotations: { title: 'Ready', readOnlyHint: true } },
  execute: async () => ({}),
})
`
    const long = 'a'.repeat(65)
    const config = "import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ oauth: { issuer: 'https://auth.example.com/' } })\n"
    const result = await buildTools(project({ 'tools/bare.ts': tool('bare', 'bare'), 'tools/ready.ts': annotated, 'tools/long.ts': tool('long', long), 'toolroute.config.ts': config }))
    expect(result.code).toBe(0)
    const warnings = result.stderr.split('\n').filter((line) => line.includes('connector directory'))
    expect(warnings).toEqual([
      expect.stringContaining('tool "bare" (tools/bare.ts) is not ready for a connector directory: it has no mcp.annotations.title; it sets neither mcp.annotations.readOnlyHint nor destructiveHint'),
      expect.stringContaining(`tool "${long}" (tools/long.ts) is not ready for a connector directory: its MCP name is 65 characters (connectors take at most 64); it has no mcp.annotations.title`),
    ])
    expect(result.stderr).not.toContain('"ready"')
    // Without oauth only the name is told: a title and hints matter to connectors, which sign agents in.
    const plain = await buildTools(project({ 'tools/bare.ts': tool('bare', 'bare'), 'tools/long.ts': tool('long', long) }))
    expect(plain.stderr.split('\n').filter((line) => line.includes('connector directory'))).toEqual([expect.stringContaining('its MCP name is 65 characters (connectors take at most 64)')])
  })

  it('compiles tools/ into the worker entry and prints the routes', async () => {
    const dir = project({ 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'tools/beta.ts': tool('beta', 'beta_tool'), 'tools/alpha.test.ts': 'throw new Error("tests are not tools")' })
    const result = await buildTools(dir)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('toolroute: 2 tools from tools/')
    expect(result.stdout).toMatch(/POST \/tools\/alpha-tool\s+\(tools\/alpha\.ts\)/)
    expect(result.stdout).toMatch(/POST \/tools\/beta_tool\s+\(tools\/beta\.ts\)/)
    expect(result.stdout).toContain('GET /openapi.json')
    const toolsModule = readFileSync(join(dir, '.toolroute/tools.ts'), 'utf8')
    expect(toolsModule).toContain('../tools/alpha.ts')
    expect(toolsModule).not.toContain('alpha.test.ts')
    const entry = readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8')
    // Idempotency is on by default (a keyed call stores its run), so a run store comes in: the one of
    // finished runs, as no tool here waits.
    expect(entry).toContain("import { createWorker, workerMcpServer, workerFinishedRunStore, loadPlaygroundPage, workerKeyStore, workerHostCheck, workerOpenApi, workerMastraRoutes } from 'toolroute/workers'")
    expect(entry).toContain('createWorker({ servedLocally: true, ...config, tools, mcpServer: workerMcpServer, runStore: workerFinishedRunStore, playgroundPage: loadPlaygroundPage, keyStore: workerKeyStore, hostCheck: workerHostCheck, openApi: workerOpenApi, mastraRoutes: workerMastraRoutes })')
    expect(entry).toContain('export class ToolRunObject')
    expect(entry).toContain('const config = {}')
  })

  // `toolroute deploy` while `toolroute dev` rebuilds: two processes build one project at once. With one
  // shared probe folder, one build's clean-up deleted the files the other was loading (ENOTEMPTY, or a
  // tool that "failed to load"); each build now probes in a folder of its own and removes it.
  it('builds of one project at once each succeed, and leave no probe folder behind', async () => {
    const dir = project({ 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'tools/beta.ts': tool('beta', 'beta_tool') })
    mkdirSync(join(dir, '.toolroute/probe'), { recursive: true }) // an earlier version's shared folder
    const results = await Promise.all([[], ['--deploy'], [], ['--deploy']].map((flags) => buildTools(dir, flags)))
    for (const result of results) expect(result.code, result.stderr).toBe(0)
    expect(readdirSync(join(dir, '.toolroute')).filter((name) => name.startsWith('probe'))).toEqual([])
    expect(JSON.parse(readFileSync(join(dir, '.toolroute/manifest.json'), 'utf8')).routes.map((route: { id: string }) => route.id)).toEqual(['alpha-tool', 'beta_tool'])
  })

  // The entry says whether the Worker is served locally (then it answers loopback Hosts only, SPEC
  // §5); no request can say it. wrangler's [build] hook learns its command from WRANGLER_COMMAND.
  // (A bare build is the first test's: served locally.)
  it.each([
    { name: "wrangler dev's hook", flags: [], env: { WRANGLER_COMMAND: 'dev' }, local: true },
    { name: "wrangler deploy's hook", flags: [], env: { WRANGLER_COMMAND: 'deploy' }, local: false },
    { name: 'a deploy build, even under wrangler dev', flags: ['--deploy'], env: { WRANGLER_COMMAND: 'dev' }, local: false },
  ])('$name: served locally is $local', async ({ flags, env, local }) => {
    const dir = project({ 'tools/alpha.ts': tool('alpha', 'alpha-tool') })
    expect((await buildTools(dir, flags, env)).code).toBe(0)
    const entry = readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8')
    expect(entry.includes('createWorker({ servedLocally: true, ...config, tools')).toBe(local)
    // The Host check comes with it, and only with it: a deployed Worker bundles none.
    expect(entry.includes('hostCheck: workerHostCheck')).toBe(local)
    expect(entry).toContain('...config, tools')
  })

  it('fails on two tools with one id, naming both files', async () => {
    const dir = project({ 'tools/first.ts': tool('first', 'same-id'), 'tools/second.ts': tool('second', 'same-id') })
    const result = await buildTools(dir)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('tool id "same-id" is defined twice')
    expect(result.stderr).toContain('tools/first.ts (export first)')
    expect(result.stderr).toContain('tools/second.ts (export second)')
  })

  it('serves one tool exported by two files (a re-export) once', async () => {
    const dir = project({ 'tools/original.ts': tool('original', 'shared-tool'), 'tools/reexport.ts': "export { original as again } from './original.ts'\n" })
    const result = await buildTools(dir)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('toolroute: 1 tool from tools/')
  })

  it('serves any id, as Mastra accepts any: the printed route is the id encoded', async () => {
    const dir = project({ 'tools/lookup.ts': tool('lookup', 'Lookup order'), 'tools/dotted.ts': tool('dotted', 'orders.lookup'), 'tools/slash.ts': tool('slash', 'a/b') })
    const result = await buildTools(dir)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/POST \/tools\/Lookup%20order\s+\(tools\/lookup\.ts\)/)
    expect(result.stdout).toMatch(/POST \/tools\/orders\.lookup\s+\(tools\/dotted\.ts\)/)
    expect(result.stdout).toMatch(/POST \/tools\/a%2Fb\s+\(tools\/slash\.ts\)/)
  })

  it('fails on two ids that map to one MCP name, naming both ids and both files', async () => {
    const dir = project({ 'tools/spaced.ts': tool('spaced', 'Lookup order'), 'tools/underscored.ts': tool('underscored', 'Lookup_order'), 'tools/other.ts': tool('other', 'other') })
    const result = await buildTools(dir)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      'tool ids "Lookup order" (tools/spaced.ts (export spaced)) and "Lookup_order" (tools/underscored.ts (export underscored)) have one MCP name "Lookup_order"',
    )
    expect(result.stderr).not.toContain('tools/other.ts')
  })

  it('fails on an id that createTool refuses (over 128 characters), naming the file', async () => {
    const dir = project({ 'tools/good.ts': tool('good', 'good'), 'tools/bad.ts': tool('bad', 'x'.repeat(129)) })
    const result = await buildTools(dir)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('tools/bad.ts')
    expect(result.stderr).toContain('id must be a non-empty string of at most 128 characters')
    expect(result.stderr).not.toContain('tools/good.ts')
  })

  it('fails on a tool object with an invalid id that bypassed createTool', async () => {
    for (const id of ['x'.repeat(129), '', 42]) {
      const forged = `export const forged = { [Symbol.for('toolroute.tool')]: true, id: ${JSON.stringify(id)} }\n`
      const result = await buildTools(project({ 'tools/forged.ts': forged }))
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`invalid tool id ${JSON.stringify(id)} in tools/forged.ts (export forged)`)
    }
  })

  it('says which schemas have no JSON Schema (listed as {}), and builds', async () => {
    const valibot = `import { createTool } from 'toolroute'
import * as v from 'valibot'

export const plain = createTool({
  id: 'plain-valibot',
  description: 'A fixture tool',
  inputSchema: v.object({ q: v.string() }),
  execute: async ({ q }) => ({ q }),
})
`
    const result = await buildTools(project({ 'tools/plain.ts': valibot }))
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('tool "plain-valibot" (tools/plain.ts): its inputSchema has no JSON Schema')
    expect(result.stderr).toContain('listed as {}')
  })

  it('fails on a file that does not compile, naming its file and line, and writes no entry', async () => {
    const dir = project({ 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'tools/broken.ts': '// a comment\nexport const = 1\n' })
    const result = await buildTools(dir)
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/tools\/broken\.ts:2: Expected identifier but found "="/)
    expect(existsSync(join(dir, '.toolroute/worker.ts'))).toBe(false) // only `toolroute dev` serves a 503 entry
  })

  it('names the line of a tool that throws while loading', async () => {
    const throwing = `import { createTool } from 'toolroute'\n\nexport const bad = createTool({\n  id: '',\n  description: 'x',\n  execute: async () => ({}),\n})\n`
    const result = await buildTools(project({ 'tools/throwing.ts': throwing }))
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/tools\/throwing\.ts:3: failed to load: /)
  })

  it('refuses a tool id whose route can never match (..), naming the tool and its file', async () => {
    const result = await buildTools(project({ 'tools/dots.ts': tool('dots', '..') }))
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/tools\/dots\.ts:\d+: failed to load: .*Tool "\.\.": id "\.\." can never be called/)
  })

  it('fails when the wrangler config lacks a binding the Worker uses, naming each, and accepts it once bound', async () => {
    const approval = `import { createTool } from 'toolroute'\nimport { z } from 'zod'\nexport const del = createTool({ id: 'del', description: 'x', requireApproval: true, inputSchema: z.object({}), execute: async () => ({}) })\n`
    const unbound = project({ 'tools/del.ts': approval, 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'wrangler.toml': 'name = "x"\nmain = ".toolroute/worker.ts"\n' })
    const result = await buildTools(unbound)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('wrangler.toml: no Durable Object binding TOOLROUTE_RUNS (class_name = "ToolRunObject"')
    // Keyed calls (toolroute/client and toolroute/ai send a key on every call) need the keys' object.
    expect(result.stderr).toContain('wrangler.toml: no Durable Object binding TOOLROUTE_IDEMPOTENCY (class_name = "IdempotencyObject"')
    expect(result.stderr).toContain('[[durable_objects.bindings]]\n    name = "TOOLROUTE_IDEMPOTENCY"\n    class_name = "IdempotencyObject"')
    // With the header ignored and no tool that waits for a human, runs need no Durable Object.
    const ignoring = `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ idempotency: false })\n`
    const plain = await buildTools(project({ 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'toolroute.config.ts': ignoring, 'wrangler.toml': 'name = "x"\n' }))
    expect(plain.stderr).toBe('')
    expect(plain.code).toBe(0)
    const runs = `\n[[durable_objects.bindings]]\nname = "TOOLROUTE_RUNS"\nclass_name = "ToolRunObject"\n`
    const keys = `\n[[durable_objects.bindings]]\nname = "TOOLROUTE_IDEMPOTENCY" # keys\nclass_name = "IdempotencyObject"\n`
    const keysOnly = await buildTools(project({ 'tools/del.ts': approval, 'wrangler.toml': `name = "x"\n${keys}` }))
    expect(keysOnly.code).toBe(1)
    expect(keysOnly.stderr).toContain('binding TOOLROUTE_RUNS')
    expect(keysOnly.stderr).not.toContain('binding TOOLROUTE_IDEMPOTENCY')
    expect((await buildTools(project({ 'tools/del.ts': approval, 'wrangler.toml': `name = "x"\n${runs}${keys}` }))).code).toBe(0)
    const misnamed = await buildTools(project({ 'tools/del.ts': approval, 'wrangler.toml': `name = "x"\n${runs.replace('"ToolRunObject"', '"Runs"')}${keys}` }))
    expect(misnamed.code).toBe(1)
    expect(misnamed.stderr).toContain('wrangler.toml:4: binding TOOLROUTE_RUNS must use class_name = "ToolRunObject"')
    const broken = await buildTools(project({ 'tools/del.ts': approval, 'wrangler.toml': `name = "x"\n\n[[durable_objects.bindings]\n` }))
    expect(broken.code).toBe(1)
    expect(broken.stderr).toMatch(/wrangler\.toml:3: /)
  }, 30_000)

  it("oauth: { provider: 'builtin' } needs OAUTH_KV in the wrangler config, and a signIn module that exists", async () => {
    const config = (oauth: string) => `export default { idempotency: false, oauth: ${oauth} }\n`
    const files = (oauth: string, wrangler: string) => ({ 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'toolroute.config.ts': config(oauth), 'wrangler.toml': `name = "x"\nmain = ".toolroute/worker.ts"\n${wrangler}` })
    const unbound = await buildTools(project(files(`{ provider: 'builtin' }`, '')))
    expect(unbound.code).toBe(1)
    expect(unbound.stderr).toContain('wrangler.toml: no KV namespace bound as OAUTH_KV')
    const kv = '[[kv_namespaces]]\nbinding = "OAUTH_KV"\nid = "x"\n'
    expect((await buildTools(project(files(`{ provider: 'builtin' }`, kv)))).code).toBe(0)
    const missing = await buildTools(project(files(`{ provider: 'builtin', signIn: './auth/nowhere.ts' }`, kv)))
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('oauth.signIn names ./auth/nowhere.ts, which does not exist')])
    // An external issuer needs no KV.
    expect((await buildTools(project(files(`{ issuer: 'https://auth.example.com/' }`, '')))).code).toBe(0)
  }, 30_000)

  it('reads wrangler.jsonc (comments, trailing commas) as wrangler does, before a wrangler.toml', async () => {
    const approval = `import { createTool } from 'toolroute'\nimport { z } from 'zod'\nexport const del = createTool({ id: 'del', description: 'x', requireApproval: true, inputSchema: z.object({}), execute: async () => ({}) })\n`
    const jsonc = (bindings: string) => `// what Cloudflare's templates write\n{\n  "name": "x",\n  "main": ".toolroute/worker.ts",\n  "durable_objects": {\n    "bindings": [\n${bindings}\n    ],\n  },\n}\n`
    const runs = `      { "name": "TOOLROUTE_RUNS", "class_name": "ToolRunObject" }, // runs`
    const keys = `      { "name": "TOOLROUTE_IDEMPOTENCY", "class_name": "IdempotencyObject" },`
    // A wrangler.toml beside it is not what wrangler reads: its bindings do not count.
    const fullToml = `name = "x"\n[[durable_objects.bindings]]\nname = "TOOLROUTE_RUNS"\nclass_name = "ToolRunObject"\n[[durable_objects.bindings]]\nname = "TOOLROUTE_IDEMPOTENCY"\nclass_name = "IdempotencyObject"\n`
    const missing = await buildTools(project({ 'tools/del.ts': approval, 'wrangler.jsonc': jsonc(runs), 'wrangler.toml': fullToml }))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('wrangler.jsonc: no Durable Object binding TOOLROUTE_IDEMPOTENCY')
    expect(missing.stderr).not.toContain('TOOLROUTE_RUNS')
    expect((await buildTools(project({ 'tools/del.ts': approval, 'wrangler.jsonc': jsonc(`${runs}\n${keys}`) }))).code).toBe(0)
    const wrong = await buildTools(project({ 'tools/del.ts': approval, 'wrangler.jsonc': jsonc(`${runs}\n${keys.replace('"IdempotencyObject"', '"Keys"')}`) }))
    expect(wrong.stderr).toContain('wrangler.jsonc:8: binding TOOLROUTE_IDEMPOTENCY must use class_name = "IdempotencyObject"')
    const broken = await buildTools(project({ 'tools/del.ts': approval, 'wrangler.jsonc': '{\n  "name": "x"\n  "main": 1\n}\n' }))
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain('wrangler.jsonc:3: CommaExpected')
  }, 30_000)

  it('passes the run store only when a call can reach a run and the config brings no runs of its own', async () => {
    const approval = `import { createTool } from 'toolroute'\nimport { z } from 'zod'\nexport const del = createTool({ id: 'del', description: 'x', requireApproval: true, inputSchema: z.object({}), execute: async () => ({}) })\n`
    const config = (options: string) => `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig(${options})\n`
    const entryOf = async (files: Record<string, string>) => {
      const dir = project(files)
      expect((await buildTools(dir)).code).toBe(0)
      return readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8')
    }
    expect(await entryOf({ 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'toolroute.config.ts': config('{ idempotency: false }') })).not.toContain('workerRunStore')
    expect(await entryOf({ 'tools/del.ts': approval, 'toolroute.config.ts': config('{ idempotency: false }') })).toContain('runStore: workerRunStore')
    // No tool waits, but keyed calls (or storeRuns: 'all') store their runs settled: the store of finished runs.
    expect(await entryOf({ 'tools/alpha.ts': tool('alpha', 'alpha-tool') })).toContain('runStore: workerFinishedRunStore')
    expect(await entryOf({ 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'toolroute.config.ts': config("{ idempotency: false, storeRuns: 'all' }") })).toContain(
      'runStore: workerFinishedRunStore',
    )
    expect(await entryOf({ 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'tools/del.ts': approval })).toContain('runStore: workerRunStore')
    // A config's own run host (Workers KV, say) replaces the Durable Objects: they are left out.
    expect(await entryOf({ 'tools/del.ts': approval, 'toolroute.config.ts': config('{ runs: () => { throw new Error("not in the build") } }') })).not.toContain('workerRunStore')
  }, 30_000)

  // A deploy refuses a script that does not export a class its wrangler config declares (bound, or
  // created by a migration): the entry exports the Worker's class for what it has, a stand-in without
  // the feature's code for what it leaves out, and nothing for a class the config does not declare.
  it('exports the Durable Object classes the Worker has, and stand-ins for those the wrangler config declares', async () => {
    const noMcp = `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ mcp: false, idempotency: false })\n`
    const bound = (name: string, className: string) => `\n[[durable_objects.bindings]]\nname = "${name}"\nclass_name = "${className}"\n`
    const entryOf = async (wrangler: string) => {
      const dir = project({ 'tools/alpha.ts': tool('alpha', 'alpha-tool'), 'toolroute.config.ts': noMcp, 'wrangler.toml': `name = "x"\n${wrangler}` })
      expect((await buildTools(dir)).code).toBe(0)
      return readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8')
    }
    const declared = await entryOf(`${bound('TOOLROUTE_RUNS', 'ToolRunObject')}${bound('TOOLROUTE_MCP', 'McpSessionObject')}`)
    expect(declared).toContain("import { DurableObject } from 'cloudflare:workers'")
    expect(declared).toMatch(/export class ToolRunObject extends DurableObject \{\n {2}async alarm\(\)/)
    expect(declared).toMatch(/export class McpSessionObject extends DurableObject \{/)
    // `idempotency: false`: no keys, so no IdempotencyObject of the Worker's; none declared here.
    expect(declared).not.toContain('IdempotencyObject')
    expect(declared).not.toContain('workerKeyStore')
    const keysDeclared = await entryOf(bound('TOOLROUTE_IDEMPOTENCY', 'IdempotencyObject'))
    expect(keysDeclared).toMatch(/export class IdempotencyObject extends DurableObject \{/)
    // A class only a migration still creates counts; one renamed away or deleted does not.
    const migrated = await entryOf('\n[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["ToolRunObject", "McpSessionObject"]\n\n[[migrations]]\ntag = "v2"\ndeleted_classes = ["McpSessionObject"]\n')
    expect(migrated).toContain('export class ToolRunObject extends DurableObject')
    expect(migrated).not.toContain('McpSessionObject')
    const undeclared = await entryOf('')
    expect(undeclared).not.toContain('ToolRunObject')
    expect(undeclared).not.toContain('McpSessionObject')
    expect(undeclared).not.toContain('cloudflare:workers')
  }, 30_000)

  it('picks up toolroute.config.ts at the project root, and prints routes under its basePath', async () => {
    const dir = project({
      'tools/alpha.ts': tool('alpha', 'alpha-tool'),
      'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ basePath: '/api/', maxInputBytes: 4096 })\n`,
    })
    const result = await buildTools(dir)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('(with toolroute.config.ts)')
    expect(result.stdout).toMatch(/POST \/api\/tools\/alpha-tool\s/)
    expect(result.stdout).toContain('GET /api/openapi.json')
    expect(readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8')).toContain('import config from "../toolroute.config.ts"')
  })
})

describe('toolroute build: a resolver that reads credentials but names no principal (SPEC §12)', () => {
  const config = (body: string) => `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ ${body} })\n`
  it('is told so, with what to do, and still builds; a resolver that names one is not', async () => {
    const cookie = "resolveRequestContext: (c) => ({ userId: c.req.header('cookie')?.split('=')[1] })"
    const warned = await buildTools(project({ 'tools/a.ts': tool('a', 'a'), 'toolroute.config.ts': config(cookie) }))
    expect(warned.code).toBe(0)
    expect(warned.stderr).toContain('resolveRequestContext reads "cookie" but names no principal')
    expect(warned.stderr).toContain('Return { requestContext, principal } from resolveRequestContext')
    const named = "resolveRequestContext: (c) => ({ requestContext: { userId: c.req.header('cookie') }, principal: c.req.header('cookie') ?? null })"
    const quiet = await buildTools(project({ 'tools/a.ts': tool('a', 'a'), 'toolroute.config.ts': config(named) }))
    expect(quiet.code).toBe(0)
    expect(quiet.stderr).toBe('')
  }, 30_000) // two builds: past vitest's 5 s on a loaded machine
})

describe('toolroute build: the playground page only where it can be served', () => {
  it('the entry passes the page by default, and leaves it (and its module) out with playground: false', async () => {
    const on = project({ 'tools/a.ts': tool('a', 'a') })
    expect((await buildTools(on)).code).toBe(0)
    expect(readFileSync(join(on, '.toolroute/worker.ts'), 'utf8')).toContain('playgroundPage: loadPlaygroundPage')
    const off = project({
      'tools/a.ts': tool('a', 'a'),
      'toolroute.config.ts': "import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ playground: false })\n",
    })
    expect((await buildTools(off)).code).toBe(0)
    const entry = readFileSync(join(off, '.toolroute/worker.ts'), 'utf8')
    expect(entry).not.toContain('loadPlaygroundPage')
    expect(entry).toContain("import { createWorker, workerMcpServer, workerFinishedRunStore, workerKeyStore, workerHostCheck, workerOpenApi, workerMastraRoutes } from 'toolroute/workers'")
  }, 30_000) // two builds: past vitest's 5 s on a loaded machine

  it('a deploy build (--deploy) leaves the page out unless the config sets playground: true', async () => {
    const config = (playground: string) => `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ ${playground} })\n`
    const built = async (files: Record<string, string>, flags: string[]) => {
      const dir = project({ 'tools/a.ts': tool('a', 'a'), ...files })
      const result = await buildTools(dir, flags)
      expect(result.code, result.stderr).toBe(0)
      return { stdout: result.stdout, entry: readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8') }
    }
    const unset = await built({}, ['--deploy'])
    expect(unset.entry).not.toContain('loadPlaygroundPage')
    expect(unset.entry).toContain("import { createWorker, workerMcpServer, workerFinishedRunStore, workerKeyStore, workerOpenApi, workerMastraRoutes } from 'toolroute/workers'")
    expect(unset.stdout).not.toContain('the playground')
    const on = await built({ 'toolroute.config.ts': config('playground: true') }, ['--deploy'])
    expect(on.entry).toContain('playgroundPage: loadPlaygroundPage')
    expect(on.stdout).toMatch(/GET {2}\/ {2}the playground\n/)
    const off = await built({ 'toolroute.config.ts': config('playground: false') }, ['--deploy'])
    expect(off.entry).not.toContain('loadPlaygroundPage')
    // The same project without --deploy (the [build] hook under wrangler dev) keeps the page.
    const dev = await built({}, [])
    expect(dev.entry).toContain('playgroundPage: loadPlaygroundPage')
    expect(dev.stdout).toContain('GET  /  the playground (on localhost)')
  }, 60_000)
})

describe('toolroute build: the manifest', () => {
  const waiting = `import { createTool } from 'toolroute'
import { z } from 'zod'

export const approve = createTool({
  id: 'Delete file',
  title: 'Delete a file',
  description: 'Needs approval',
  requireApproval: true,
  inputSchema: z.object({ path: z.string() }),
  outputSchema: z.object({ deleted: z.boolean() }),
  mcp: { annotations: { destructiveHint: true }, _meta: { team: 'files' } },
  execute: async () => ({ deleted: true }),
})
export const ask = createTool({
  id: 'ask',
  description: 'Suspends for an answer',
  requireApproval: async () => false,
  inputSchema: z.object({}),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ answer: z.string() }),
  execute: async () => ({}),
})
export const report = createTool({
  id: 'report',
  description: 'Runs in the background',
  inputSchema: z.object({ days: z.number().int() }),
  background: { enabled: true, timeoutMs: 5000 },
  execute: async () => ({}),
})
`
  const bound = `name = "x"\n\n[[durable_objects.bindings]]\nname = "TOOLROUTE_RUNS"\nclass_name = "ToolRunObject"\n\n[[durable_objects.bindings]]\nname = "TOOLROUTE_IDEMPOTENCY"\nclass_name = "IdempotencyObject"\n`

  it('holds what GET /tools/:toolId and MCP tools/list answer, as an app of the same tools computes them', async () => {
    const dir = project({
      'tools/alpha.ts': tool('alpha', 'alpha-tool'),
      'tools/waiting.ts': waiting,
      'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ basePath: '/api', server: { name: 'fixture', version: '2.0.0' } })\n`,
      'wrangler.toml': bound,
    })
    const result = await buildTools(dir)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const manifest = JSON.parse(readFileSync(join(dir, '.toolroute/manifest.json'), 'utf8'))
    expect(manifest.files).toEqual(['tools/alpha.ts', 'tools/waiting.ts'])
    expect(manifest.routes).toEqual([
      { id: 'alpha-tool', mcpName: 'alpha-tool', module: 0, exportName: 'alpha', file: 'tools/alpha.ts', requireApproval: false, suspends: false, background: false },
      { id: 'Delete file', mcpName: 'Delete_file', module: 1, exportName: 'approve', file: 'tools/waiting.ts', requireApproval: true, suspends: false, background: false },
      { id: 'ask', mcpName: 'ask', module: 1, exportName: 'ask', file: 'tools/waiting.ts', requireApproval: 'conditional', suspends: true, background: false },
      { id: 'report', mcpName: 'report', module: 1, exportName: 'report', file: 'tools/waiting.ts', requireApproval: false, suspends: false, background: true },
    ])

    // The same modules, evaluated here, served by an app of plain tools: what it answers is what the manifest holds.
    const { createToolApp } = await import('toolroute/server')
    const { toMcpTool } = await import('../../src/manifest/to-mcp-tool.ts')
    const tools = [...Object.values(await import(join(dir, 'tools/alpha.ts'))), ...Object.values(await import(join(dir, 'tools/waiting.ts')))] as Parameters<typeof toMcpTool>[0][]
    const app = createToolApp({ tools, basePath: '/api', server: { name: 'fixture', version: '2.0.0' } })
    const { listings } = manifest
    // The manifest keeps no OpenAPI document: the app builds it from the descriptors, for its own base path.
    expect(Object.keys(listings).sort()).toEqual(['descriptors', 'mcpTools'])
    for (const descriptor of listings.descriptors) expect(descriptor).toEqual(await (await app.request(`/api/tools/${encodeURIComponent(descriptor.id)}`)).json())
    expect({ tools: listings.descriptors }).toEqual(await (await app.request('/api/tools')).json())
    expect(listings.mcpTools).toEqual(JSON.parse(JSON.stringify(tools.map(toMcpTool))))
    expect(listings.mcpTools[1]).toMatchObject({ name: 'Delete_file', title: 'Delete a file', annotations: { destructiveHint: true }, _meta: { team: 'files' }, outputSchema: { type: 'object' } })

    // The Worker's entry takes the lazy tools; tools.ts still imports every module (and types `Tools`).
    const lazy = readFileSync(join(dir, '.toolroute/manifest.ts'), 'utf8')
    expect(lazy).toContain("import { LazyTools } from 'toolroute/workers'")
    expect(lazy).toContain('() => import("../tools/alpha.ts"),\n    () => import("../tools/waiting.ts"),')
    expect(lazy).not.toMatch(/^import .*tools\//m)
    expect(readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8')).toContain('import { tools } from "./manifest.ts"')
    const eager = readFileSync(join(dir, '.toolroute/tools.ts'), 'utf8')
    expect(eager).toContain('import * as m0 from "../tools/alpha.ts"')
    expect(eager).toContain('export type Tools = [typeof m0["alpha"], typeof m1["approve"], typeof m1["ask"], typeof m1["report"]]')
  }, 30_000)
})
