// SPEC §11: an app pays in bundle size only for what it uses. Fixture projects are built by
// `toolroute build` and their generated entry bundled by esbuild as wrangler does (workerd
// conditions, package.json sideEffects honoured); the metafile says which modules reached the output.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { outputInputs, pieces } from '../../scripts/bundle-inputs.mjs'
import { sourceAliases } from '../../cli/source-aliases.mjs'
import { greet } from '../../bench/bundle/greet-sources.mjs'

const repo = resolve(import.meta.dirname, '../..')
const tmpRoot = join(repo, '.toolroute-test-tmp')
const created: string[] = []
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true })
})

/** Builds a one-tool project (as `toolroute build`, or `--deploy`) and bundles its Worker entry; returns the bundle's input paths and exports. */
async function bundleApp(
  library: keyof typeof greet,
  config: Record<string, unknown>,
  more: Record<string, string> = {},
  target: 'dev' | 'deploy' = 'dev',
): Promise<{ inputs: string[]; exports: string[]; entry: string }> {
  const dir = join(tmpRoot, `split-${process.pid}-${Math.random().toString(36).slice(2)}`)
  created.push(dir)
  const files = {
    'tools/greet.ts': greet[library],
    'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig(${JSON.stringify(config)})\n`,
    ...more,
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  await promisify(execFile)(process.execPath, [join(repo, 'cli/toolroute.mjs'), 'build', ...(target === 'deploy' ? ['--deploy'] : []), dir], { cwd: repo })
  const result = await build({
    entryPoints: [join(dir, '.toolroute/worker.ts')],
    bundle: true,
    write: false,
    metafile: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
    external: ['cloudflare:*', 'node:*'],
    alias: sourceAliases(),
    outdir: join(dir, 'out'),
    logLevel: 'silent',
  })
  const output = Object.values(result.metafile.outputs).find((entry) => entry.entryPoint)!
  return { inputs: Object.keys(outputInputs(result.metafile)), exports: output.exports, entry: readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8') }
}

/** A second tool beside greet, in Zod, with one option that makes its calls stateful. */
const statefulTool = (option: string, execute = 'async () => ({ done: true })') => `import { createTool } from 'toolroute'
import { z } from 'zod'

export const stateful = createTool({
  id: 'stateful',
  description: 'A tool whose calls may be stored',
  inputSchema: z.object({}),
  ${option}
  execute: ${execute},
})
`

const carries = (inputs: string[], piece: keyof typeof pieces) => inputs.filter((path) => pieces[piece](path))

/** A second tool beside greet whose `option` schema is a plain JSON Schema (its input Zod unless that is the one). */
const jsonSchemaTool = (option: string) => `import { createTool } from 'toolroute'
import { z } from 'zod'

export const plain = createTool({
  id: 'plain',
  description: 'A tool with a plain JSON Schema',
  ${option === 'inputSchema' ? '' : 'inputSchema: z.object({}),'}
  ${option}: { type: 'object', properties: { n: { type: 'number' } } },
  execute: async () => ({ n: 1 }),
})
`

describe('a Worker bundles only what its config and tools use', () => {
  it('with mcp: false, no MCP SDK (v1 or v2) and nothing of src/mcp; the Durable Object classes are still exported', async () => {
    const off = await bundleApp('zod', { mcp: false })
    expect(carries(off.inputs, 'MCP SDK')).toEqual([])
    expect(carries(off.inputs, 'src/mcp')).toEqual([])
    expect(off.exports.sort()).toEqual(['IdempotencyObject', 'McpSessionObject', 'ToolRunObject', 'default'])
    // Zod validates itself: no JSON Schema validator, and the entry passes none.
    expect(carries(off.inputs, 'JSON Schema validator')).toEqual([])
    expect(off.entry).not.toContain('workerJsonSchema')
    // The check can see MCP: the same app with MCP on carries SDK v2, and only it (#28: one stack).
    const on = await bundleApp('zod', {})
    expect(carries(on.inputs, 'MCP SDK').some((path) => path.includes('@modelcontextprotocol/server/'))).toBe(true)
    expect(carries(on.inputs, 'MCP SDK').filter((path) => path.includes('@modelcontextprotocol/sdk/'))).toEqual([])
    expect(on.inputs.filter((path) => /node_modules\/ajv/.test(path))).toEqual([])
    expect(carries(on.inputs, 'src/mcp').length).toBeGreaterThan(0)
  }, 60_000)

  it('with idempotency: false and only tools that complete in their request, no run store; ToolRunObject is still exported', async () => {
    const off = await bundleApp('zod', { mcp: false, idempotency: false })
    expect(carries(off.inputs, 'run store')).toEqual([])
    // Named one by one too: the engine, the Durable Object that holds a run, its host and store, the memory store.
    for (const file of ['runs/create-run-engine', 'adapter/cloudflare-workers/create-tool-run-object', 'adapter/cloudflare-workers/durable-object-run-host', 'adapter/cloudflare-workers/durable-object-run-store', 'adapter/cloudflare-workers/sql-run-index', 'store/memory/memory-run-store']) {
      expect(off.inputs.filter((path) => path.includes(`src/${file}.ts`))).toEqual([])
    }
    expect(off.exports.sort()).toEqual(['IdempotencyObject', 'McpSessionObject', 'ToolRunObject', 'default'])
    expect(off.entry).not.toContain('RunStore')
    // The check can see the run store: with idempotency left on (keyed calls store their run), it is there.
    const keyed = await bundleApp('zod', { mcp: false })
    expect(carries(keyed.inputs, 'run store').some((path) => path.includes('src/adapter/cloudflare-workers/create-run-object-class.ts'))).toBe(true)
  }, 60_000)

  /** The per-principal run index (GET /runs, MCP's tasks/list): every kept run is listed, stored settled or driven. */
  const runIndex = ['runs/with-run-index', 'adapter/cloudflare-workers/durable-object-run-index', 'adapter/cloudflare-workers/sql-run-index']

  it.each([
    ['idempotency on (the default)', { mcp: false }],
    ["storeRuns: 'all'", { mcp: false, idempotency: false, storeRuns: 'all' }],
    ['MCP on', {}],
  ] as const)('with %s and only tools that complete in their request, the store of finished runs and its index: none of the engine that waits', async (_name, config) => {
    const { inputs, entry, exports } = await bundleApp('zod', config)
    expect(entry).toContain('runStore: workerFinishedRunStore')
    expect(entry).not.toContain('workerRunStore')
    // What a run stored settled needs: its object and store, the host, reading it back, retention, the refusals.
    for (const file of [
      'runs/finished-runs',
      'runs/create-stored-runs',
      'runs/run-refusal',
      'runs/stored-input-events',
      'runs/run-lifetime',
      'adapter/cloudflare-workers/create-run-object-class',
      'adapter/cloudflare-workers/durable-object-run-store',
      'adapter/cloudflare-workers/durable-object-run-host',
      ...runIndex,
    ]) {
      expect(inputs.filter((path) => path.includes(`src/${file}.ts`))).toHaveLength(1)
    }
    // What only a run that waits, is resumed or runs in the background reaches.
    for (const file of [
      'runs/drive-runs',
      'runs/run-transitions',
      'runs/create-step-runner',
      'runs/run-background-attempt',
      'runs/run-notifier',
      'runs/follow-run',
      'runs/run-cancellation',
      'adapter/cloudflare-workers/create-tool-run-object',
    ]) {
      expect(inputs.filter((path) => path.includes(`src/${file}.ts`))).toEqual([])
    }
    expect(exports.sort()).toEqual(['IdempotencyObject', 'McpSessionObject', 'ToolRunObject', 'default'])
  }, 60_000)

  it.each([
    ['one approval tool', { mcp: false, idempotency: false }, statefulTool('requireApproval: true,')],
    ['one tool whose approval a function decides', { mcp: false, idempotency: false }, statefulTool('requireApproval: () => false,')],
    ['one background tool', { mcp: false, idempotency: false }, statefulTool('background: { enabled: true },')],
    ['one tool with a resume schema', { mcp: false, idempotency: false }, statefulTool('resumeSchema: z.object({ ok: z.boolean() }),')],
    ['one tool with a suspend schema', { mcp: false, idempotency: false }, statefulTool('suspendSchema: z.object({ why: z.string() }),')],
    ['idempotency on and one approval tool', { mcp: false }, statefulTool('requireApproval: true,')],
  ] as const)('an app with %s still gets the run store', async (_name, config, tool) => {
    const { inputs, entry } = await bundleApp('zod', config, { 'tools/stateful.ts': tool })
    expect(entry).toContain('runStore: workerRunStore')
    expect(entry).not.toContain('workerFinishedRunStore')
    expect(inputs.some((path) => path.includes('src/adapter/cloudflare-workers/create-tool-run-object.ts'))).toBe(true)
    expect(inputs.some((path) => path.includes('src/runs/drive-runs.ts'))).toBe(true)
    for (const file of runIndex) expect(inputs.filter((path) => path.includes(`src/${file}.ts`))).toHaveLength(1)
  }, 60_000)

  it('webhooks are bundled only when the config has them: the sender passed to createWorker, none of src/webhooks/ otherwise', async () => {
    const approval = { 'tools/stateful.ts': statefulTool('requireApproval: true,') }
    const webhooks = [{ url: 'https://hooks.example.test/toolroute', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }]
    const off = await bundleApp('zod', { mcp: false, idempotency: false }, approval)
    expect(off.entry).not.toContain('workerWebhooks')
    expect(carries(off.inputs, 'webhooks')).toEqual([])
    const on = await bundleApp('zod', { mcp: false, idempotency: false, publicUrl: 'https://tools.example.test', webhooks }, approval)
    expect(on.entry).toContain('webhookSender: workerWebhooks')
    expect(carries(on.inputs, 'webhooks').some((path) => path.includes('src/webhooks/worker-webhooks.ts'))).toBe(true)
    // Signed with Web Crypto: no hashing library comes with it, and nothing of the in-process sender.
    expect(on.inputs.filter((path) => /node_modules\/(standardwebhooks|fast-sha256|@stablelib)/.test(path))).toEqual([])
    expect(carries(on.inputs, 'webhooks').filter((path) => path.includes('memory-webhook'))).toEqual([])
  }, 60_000)

  it('an app whose one tool calls suspend without declaring a schema gets no run store: whether a tool suspends is declared, not read from its source', async () => {
    const tool = statefulTool('', "async (_input, { suspend }) => { await suspend?.({ why: 'ask' }); return { done: true } }")
    const { inputs, entry } = await bundleApp('zod', { mcp: false, idempotency: false }, { 'tools/stateful.ts': tool })
    expect(entry).not.toContain('runStore: workerRunStore')
    expect(inputs.some((path) => path.includes('src/runs/create-run-engine.ts'))).toBe(false)
  }, 60_000)

  it('a deploy build carries no playground page unless the config sets playground: true; a dev build carries it', async () => {
    const deployed = await bundleApp('zod', { mcp: false }, {}, 'deploy')
    expect(deployed.entry).not.toContain('loadPlaygroundPage')
    expect(deployed.inputs.filter((path) => path.includes('src/playground/'))).toEqual([])
    expect(deployed.exports.sort()).toEqual(['IdempotencyObject', 'McpSessionObject', 'ToolRunObject', 'default'])
    // The check can see the page: playground: true keeps it in a deploy build, and a dev build has it by default.
    for (const app of [await bundleApp('zod', { mcp: false, playground: true }, {}, 'deploy'), await bundleApp('zod', { mcp: false })]) {
      expect(app.entry).toContain('playgroundPage: loadPlaygroundPage')
      expect(carries(app.inputs, 'playground').map((path) => path.replace(/.*src\//, 'src/')).sort()).toEqual([
        'src/playground/playground-forms.ts',
        'src/playground/playground-page.ts',
        'src/playground/playground-runs.ts',
        'src/playground/playground-script.ts',
        'src/playground/playground-session.ts',
        'src/playground/playground-token-prompt.ts',
        'src/playground/playground-views.ts',
      ])
    }
  }, 60_000)

  it('CORS and the Host check are bundled only where used: the Host check in a dev build, CORS with the cors option', async () => {
    const isCors = (path: string) => path.includes('node_modules/hono/dist/middleware/cors/')
    const isHostCheck = (path: string) => path.includes('src/http/middleware/check-host.ts')
    const deployed = await bundleApp('zod', { mcp: false }, {}, 'deploy')
    expect(deployed.inputs.filter((path) => isCors(path) || isHostCheck(path))).toEqual([])
    const local = await bundleApp('zod', { mcp: false })
    expect(local.inputs.some(isHostCheck)).toBe(true)
    expect(local.inputs.some(isCors)).toBe(false)
    const withCors = await bundleApp('zod', { mcp: false, cors: { origin: 'https://app.example' } }, {}, 'deploy')
    expect(withCors.entry).toContain('corsMiddleware: workerCors')
    expect(withCors.inputs.some(isCors)).toBe(true)
    expect(withCors.inputs.some(isHostCheck)).toBe(false)
    // A config that says it is served locally gets the check in a deploy build too, rather than a Worker that refuses to start.
    expect((await bundleApp('zod', { mcp: false, servedLocally: true }, {}, 'deploy')).inputs.some(isHostCheck)).toBe(true)
  }, 60_000)

  it('OpenAPI and Mastra\'s routes are bundled only when served; MCP without a TOOLROUTE_MCP binding bundles no session object', async () => {
    const has = (inputs: string[], file: string) => inputs.some((path) => path.endsWith(file))
    const sessionParts = ['cloudflare-workers/create-mcp-session-object.ts', 'src/mcp/create-mcp-session.ts', 'src/mcp/create-memory-mcp-sessions.ts', 'src/mcp/memory-event-store.ts']
    // No wrangler config: every binding may exist, so sessions come in (and no config names openapi or mastra).
    const on = await bundleApp('zod', { idempotency: false }, {}, 'deploy')
    for (const file of ['src/extra-routes/openapi.ts', 'src/extra-routes/mastra-routes.ts', ...sessionParts.slice(0, 2)]) expect(has(on.inputs, file)).toBe(true)
    expect(on.entry).toContain('openApi: workerOpenApi, mastraRoutes: workerMastraRoutes')
    expect(on.exports).toContain('McpSessionObject')
    // The MCP-only app of BENCHMARKS.md's peers row: its wrangler config binds no TOOLROUTE_MCP.
    const wrangler = 'name = "mcp-only"\nmain = ".toolroute/worker.ts"\ncompatibility_date = "2025-09-01"\n'
    const off = await bundleApp('zod', { idempotency: false, openapi: false, mastra: false }, { 'wrangler.toml': wrangler }, 'deploy')
    for (const file of ['src/extra-routes/openapi.ts', 'src/extra-routes/mastra-routes.ts', ...sessionParts]) expect(has(off.inputs, file)).toBe(false)
    expect(off.entry).toContain('mcpServer: workerStatelessMcpServer')
    expect(has(off.inputs, 'src/mcp/create-mcp-endpoint.ts')).toBe(true)
    expect(off.exports.sort()).toEqual(['default'])
    // A config that asks for this isolate's own sessions keeps them, binding or not.
    const memory = await bundleApp('zod', { idempotency: false, mcp: { sessions: 'memory' } }, { 'wrangler.toml': wrangler }, 'deploy')
    expect(memory.entry).toContain('mcpServer: workerMcpServer')
    expect(has(memory.inputs, 'src/mcp/create-memory-mcp-sessions.ts')).toBe(true)
  }, 90_000)

  it('the OAuth resource server (src/oauth/, jose) is bundled only with the oauth option (SPEC §15)', async () => {
    const isOAuth = (path: string) => path.includes('src/oauth/') || path.includes('node_modules/jose/')
    const without = await bundleApp('zod', { mcp: false }, {}, 'deploy')
    expect(without.entry).not.toContain('workerOAuth')
    expect(without.inputs.filter(isOAuth)).toEqual([])
    const withOAuth = await bundleApp('zod', { mcp: false, oauth: { issuer: 'https://auth.example.com/' } }, {}, 'deploy')
    expect(withOAuth.entry).toContain('oauthGuard: workerOAuth')
    expect(withOAuth.inputs.some((path) => path.includes('src/oauth/oauth-guard.ts'))).toBe(true)
    expect(withOAuth.inputs.some((path) => path.includes('node_modules/jose/'))).toBe(true)
    const isProvider = (path: string) => path.includes('node_modules/@cloudflare/workers-oauth-provider/')
    expect([...without.inputs, ...withOAuth.inputs].filter(isProvider)).toEqual([])
    // toolroute as its own authorization server: the library and the built-in files, no jose.
    const builtin = await bundleApp('zod', { mcp: false, oauth: { provider: 'builtin' } })
    expect(builtin.entry).toContain('export default withBuiltinOAuth({ fetch: worker.fetch }, { config, servedLocally: true })')
    expect(builtin.inputs.some(isProvider)).toBe(true)
    expect(builtin.inputs.some((path) => path.includes('src/oauth/local-sign-in.ts'))).toBe(true)
    expect(builtin.inputs.filter((path) => path.includes('node_modules/jose/') || path.includes('src/oauth/oauth-guard.ts'))).toEqual([])
    // Deployed, it needs the app's own sign-in.
    await expect(bundleApp('zod', { mcp: false, oauth: { provider: 'builtin' } }, {}, 'deploy')).rejects.toThrow(/needs signIn/)
  }, 60_000)

  it('tracing (src/tracing/, @opentelemetry) is bundled only with the tracing option (SPEC §17)', async () => {
    const isTracing = (path: string) => path.includes('src/tracing/') || path.includes('node_modules/@opentelemetry/')
    const without = await bundleApp('zod', { mcp: false }, {}, 'deploy')
    expect(without.entry).not.toContain('workerTracing')
    expect(without.inputs.filter(isTracing)).toEqual([])
    const withTracing = await bundleApp('zod', { mcp: false, tracing: { serviceName: 'tools' } }, {}, 'deploy')
    expect(withTracing.entry).toContain('tracer: workerTracing')
    expect(withTracing.inputs.some((path) => path.includes('src/tracing/mount-tracing.ts'))).toBe(true)
    expect(withTracing.inputs.some((path) => path.includes('node_modules/@opentelemetry/exporter-trace-otlp-http/'))).toBe(true)
  }, 60_000)

  it('toolroute deploy builds for deployment: its bundle carries no playground page; with playground: true it does; the dev entry is left alone', async () => {
    const deployed = async (config: Record<string, unknown>, main = '.toolroute/worker.ts') => {
      const dir = join(tmpRoot, `deploy-${process.pid}-${Math.random().toString(36).slice(2)}`)
      created.push(dir)
      const files = {
        'tools/greet.ts': greet.zod,
        'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig(${JSON.stringify(config)})\n`,
        // A hand-written entry serving the generated one (wrangler.toml's `main` is then not .toolroute/worker.ts).
        'src/worker.ts': `export { default, ToolRunObject, McpSessionObject, IdempotencyObject } from '../.toolroute/worker.ts'\n`,
        // No [build] hook (toolroute deploy builds), and 'toolroute' is the sources, as in bench/bundle.bench.mjs.
        'wrangler.toml': `name = "deploy-fixture"\nmain = "${main}"\ncompatibility_date = "2026-11-24"\n\n[alias]\n${Object.entries(sourceAliases())
          .map(([name, path]) => `${JSON.stringify(name)} = ${JSON.stringify(path)}`)
          .join('\n')}\n` +
          // The objects toolroute build checks a Worker binds (keyed calls store runs), as toolroute init writes them.
          `\n[[durable_objects.bindings]]\nname = "TOOLROUTE_RUNS"\nclass_name = "ToolRunObject"\n\n[[durable_objects.bindings]]\nname = "TOOLROUTE_IDEMPOTENCY"\nclass_name = "IdempotencyObject"\n\n[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["ToolRunObject", "IdempotencyObject"]\n`,
      }
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true })
        writeFileSync(join(dir, name), text)
      }
      const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(repo, '.wrangler/logs'), NO_COLOR: '1' }
      // As a `toolroute dev` left it (and may still be serving it).
      await promisify(execFile)(process.execPath, [join(repo, 'cli/toolroute.mjs'), 'build'], { cwd: dir, env })
      const devEntry = readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8')
      await promisify(execFile)(process.execPath, [join(repo, 'cli/toolroute.mjs'), 'deploy', '--dry-run', '--outdir', 'out', '--', '--metafile'], { cwd: dir, env })
      const separate = existsSync(join(dir, '.toolroute/deploy/worker.ts'))
      return {
        devEntry,
        separate,
        worker: readFileSync(join(dir, '.toolroute/worker.ts'), 'utf8'),
        entry: readFileSync(join(dir, separate ? '.toolroute/deploy/worker.ts' : '.toolroute/worker.ts'), 'utf8'),
        inputs: Object.keys(outputInputs(JSON.parse(readFileSync(join(dir, 'out/bundle-meta.json'), 'utf8')))),
        bundle: readFileSync(join(dir, 'out/worker.js'), 'utf8'),
      }
    }
    const unset = await deployed({ mcp: false })
    expect(unset.separate).toBe(true)
    expect(unset.entry).not.toContain('loadPlaygroundPage')
    expect(carries(unset.inputs, 'playground')).toEqual([])
    expect(unset.bundle).not.toContain('toolroute playground')
    expect(unset.bundle).toContain('Hello, ${name}!')
    // The dev build's entry, with its page, is what it was: a running `wrangler dev` is not reloaded without it.
    expect(unset.devEntry).toContain('playgroundPage: loadPlaygroundPage')
    expect(unset.worker).toBe(unset.devEntry)
    const on = await deployed({ mcp: false, playground: true })
    expect(on.entry).toContain('playgroundPage: loadPlaygroundPage')
    expect(carries(on.inputs, 'playground').length).toBe(7)
    expect(on.bundle).toContain('toolroute playground')
    // A hand-written `main` imports .toolroute/worker.ts itself: that file is then the deploy build.
    const own = await deployed({ mcp: false }, 'src/worker.ts')
    expect(own.separate).toBe(false)
    expect(own.worker).not.toContain('loadPlaygroundPage')
    expect(carries(own.inputs, 'playground')).toEqual([])
    expect(own.bundle).toContain('Hello, ${name}!')
  }, 180_000)

  it.each(['valibot', 'arktype'] as const)('a %s app without MCP bundles no Zod at all (the framework checks its own bodies by hand)', async (library) => {
    const { inputs, exports } = await bundleApp(library, { mcp: false, playground: false })
    expect(inputs.filter((path) => path.includes('node_modules/zod/'))).toEqual([])
    expect(inputs.filter((path) => path.includes('@hono/zod-validator'))).toEqual([])
    expect(carries(inputs, 'MCP SDK')).toEqual([])
    expect(carries(inputs, 'src/mcp')).toEqual([])
    expect(carries(inputs, 'JSON Schema validator')).toEqual([])
    expect(inputs.some((path) => path.includes(`node_modules/${library}/`))).toBe(true)
    expect(exports).toContain('McpSessionObject')
    // Nor an in-memory store: a Worker keeps its keys and runs in Durable Objects.
    expect(inputs.filter((path) => path.includes('src/store/memory/'))).toEqual([])
  }, 60_000)

  it.each(['inputSchema', 'outputSchema', 'suspendSchema', 'resumeSchema', 'requestContextSchema'])(
    'an app with one tool whose %s is a plain JSON Schema gets the JSON Schema validator (@cfworker/json-schema)',
    async (option) => {
      const { inputs, entry } = await bundleApp('zod', { mcp: false, idempotency: false }, { 'tools/plain.ts': jsonSchemaTool(option) })
      expect(entry).toContain('jsonSchema: workerJsonSchema')
      expect(carries(inputs, 'JSON Schema validator').some((path) => path.includes('node_modules/@cfworker/json-schema/'))).toBe(true)
      expect(inputs.some((path) => path.includes('src/schema/cfworker-json-schema.ts'))).toBe(true)
    },
    60_000,
  )
})
