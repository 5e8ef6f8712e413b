// `toolroute build`: compiles tools/ into the Worker's entry (.toolroute/worker.ts), run by
// wrangler's [build] so `wrangler dev` and `wrangler deploy` always serve the current tools. No
// hand-kept list: every tool exported by a file in tools/ is served. Two tools with one id, or whose
// ids map to one MCP name, fail the build with a message naming both files.
//
// The tools are evaluated here, in Node, once: their descriptors, JSON Schemas, MCP listing and
// OpenAPI document go into a manifest (.toolroute/manifest.json, and .toolroute/manifest.ts for the
// Worker), so the Worker lists its tools without evaluating any tool module and imports a tool's
// module on that tool's first call (SPEC §11). .toolroute/tools.ts still imports every tool, for code
// that wants the tool objects (tests, an app built by hand) and for the `Tools` type.
import { build } from 'esbuild'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { checkBindings } from './check-bindings.mjs'
import { connectorReadiness } from './connector-readiness.mjs'
import { declaredClasses, durableObjectExports } from './durable-object-exports.mjs'
import { readWranglerConfig } from './wrangler-config.mjs'
import { fallbackWorker } from './fallback-worker.mjs'
import { importToolrouteModules, sourceAliases } from './source-aliases.mjs'

// What a tool module is, what a tool is and which ids collide (one owner, shared with Deno's
// loader), and the manifest of the tools found.
const { collectTools, createToolManifest, isStandardSchema, isToolModuleFile, runStoreReasons, storedRunReason } = await importToolrouteModules([
  'schema/compile-schema',
  'tool/collect-tools',
  'manifest/create-tool-manifest',
  'runs/run-store-reasons',
  'manifest/stored-run-reason',
])
// Load errors (createTool refusing a bad id) then point at tools/<file>:<line>, not at the probe.
process.setSourceMapsEnabled(true)

/**
 * Builds `root`'s tools/ (and toolroute.config.ts) into `.toolroute/`. Returns the problems, each
 * `<file>:<line>: <what>` where a line is known; prints the routes or the problems.
 * With `fallback`, a failed build writes a Worker entry that answers every request
 * `503 BUILD_FAILED` with the problems (`toolroute dev`: the server never hangs on a broken file).
 * With `deploy` (`toolroute deploy`, `toolroute build --deploy`), the build is for a deployed Worker,
 * which serves the playground only with `playground: true` (SPEC §10): otherwise its entry leaves
 * the page out. A build without it (a bare build, wrangler's [build] hook) keeps the page, which is
 * safe: it is served to local hosts only. Whether the Worker is served locally (and so refuses
 * foreign Hosts) is decided apart from this, below.
 * `entry` names the Worker entry's file in `.toolroute/` (`worker.ts`, which wrangler.toml's `main`
 * names): `toolroute deploy` writes `deploy/worker.ts` beside it, so a `wrangler dev` serving `worker.ts`
 * meanwhile is not reloaded without its page.
 */
export async function buildTools(root, options = {}) {
  root = resolve(root)
  const outDir = join(root, '.toolroute')
  mkdirSync(outDir, { recursive: true })
  // Each build loads the tools from a folder of its own, removed after: a `toolroute deploy` while
  // `toolroute dev` rebuilds (two processes, one project) must not delete the files the other loads.
  const probeDir = mkdtempSync(join(outDir, 'probe-'))
  let result
  try {
    result = await compileTools(root, options.deploy === true, options.entry ?? 'worker.ts', probeDir)
  } finally {
    rmSync(probeDir, { recursive: true, force: true })
  }
  if (result.problems.length === 0) return result
  console.error(`toolroute: ${result.heading}:\n${result.problems.map((problem) => `  - ${problem}`).join('\n')}`)
  if (options.fallback) {
    writeIfChanged(join(outDir, 'worker.ts'), fallbackWorker(result.problems))
    console.error('toolroute: serving 503 BUILD_FAILED until the tools build again')
  }
  return result
}

// Written only when they change: a running `wrangler dev` reloads on any write to its entry,
// and a build started elsewhere (a bundle, a test) would restart it mid-request.
const writeIfChanged = (file, text) => {
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text)
}

/** Where an esbuild message or a load error points, relative to the project root. */
function located(root, file, line) {
  return `${relative(root, resolve(root, file)).split('\\').join('/')}${line ? `:${line}` : ''}`
}

/** The first frame of `error`'s stack inside `file`, as `file:line`, else `file`. */
function whereIn(root, file, error) {
  const path = resolve(root, file)
  for (const match of String(error?.stack ?? '').matchAll(/(?:file:\/\/)?(\/[^\s:()]+):(\d+):\d+/g)) {
    if (resolve(decodeURIComponent(match[1])) === path) return located(root, file, match[2])
  }
  return located(root, file)
}

async function compileTools(root, deploy, entryFile, probeDir) {
  const toolsDir = join(root, 'tools')
  const outDir = join(root, '.toolroute')
  const files = existsSync(toolsDir)
    ? readdirSync(toolsDir)
        .filter(isToolModuleFile)
        .sort()
    : []
  const configFile = ['toolroute.config.ts', 'toolroute.config.js'].find((name) => existsSync(join(root, name)))

  rmSync(join(outDir, 'probe'), { recursive: true, force: true }) // the one shared folder of earlier versions
  rmSync(join(outDir, 'probe.mjs'), { force: true }) // and its file before that

  // Load each tool module (and the config) in Node to read what it exports. One entry per file,
  // so a file that throws while loading (createTool refuses a bad id at definition) is named;
  // shared code is split into common chunks, so a tool re-exported by two files is one object.
  // `cloudflare:*` modules exist only in workerd: a stub stands in for them here.
  const entryPoints = Object.fromEntries(files.map((file, index) => [`tool-${index}`, join(toolsDir, file)]))
  if (configFile) entryPoints.config = join(root, configFile)
  const cloudflareStub = {
    name: 'cloudflare-stub',
    setup(build) {
      build.onResolve({ filter: /^cloudflare:/ }, (args) => ({ path: args.path, namespace: 'cloudflare-stub' }))
      build.onLoad({ filter: /.*/, namespace: 'cloudflare-stub' }, () => ({
        contents: 'export class DurableObject {}\nexport class WorkerEntrypoint {}\nexport class WorkflowEntrypoint {}\nexport const env = {}',
        loader: 'js',
      }))
    },
  }
  const problems = []
  let probe = {}
  try {
    await build({
      entryPoints,
      absWorkingDir: root,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir: probeDir,
      outExtension: { '.js': '.mjs' },
      sourcemap: 'inline',
      // In toolroute's own repository, 'toolroute' is its sources; in a project, the package.
      alias: sourceAliases(),
      plugins: [cloudflareStub],
      logLevel: 'silent',
    })
  } catch (error) {
    const messages = error.errors?.map((item) => `${item.location ? `${located(root, item.location.file, item.location.line)}: ` : ''}${item.text}`)
    return { problems: messages ?? [error.message], heading: 'cannot compile tools/' }
  }
  const version = Date.now()
  for (const name of Object.keys(entryPoints)) {
    try {
      probe[name] = await import(`${pathToFileURL(join(probeDir, `${name}.mjs`)).href}?t=${version}`)
    } catch (error) {
      const file = name === 'config' ? configFile : `tools/${files[Number(name.slice(5))]}`
      problems.push(`${whereIn(root, file, error)}: failed to load: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  const found = collectTools(files.map((file, index) => ({ file: `tools/${file}`, exports: probe[`tool-${index}`] ?? {} })))
  problems.push(...found.problems)
  const routes = found.tools.map(({ tool, id, module, exportName }) => ({ id, file: files[module], module: `m${module}`, exportName, value: tool }))
  if (problems.length > 0) return { problems, heading: 'the tools in tools/ cannot be served' }

  const config = probe.config?.default ?? {}
  const someToolWaits = routes.some(({ value }) => storedRunReason(value) !== undefined)
  // Runs live in Durable Objects unless the config brings its own host, and so do idempotency
  // keys unless it brings its own store (or ignores the header): a binding the Worker will use
  // and the wrangler config lacks fails here, not at the first approval or keyed call.
  const keepsRuns = config.runs === undefined && runStoreReasons(routes.map(({ value }) => value), config).length > 0
  const builtinOAuth = config.oauth?.provider === 'builtin'
  const bindingProblems = checkBindings(root, { needsRuns: keepsRuns, needsIdempotency: config.idempotency === undefined || config.idempotency === true, needsOAuthKv: builtinOAuth })
  if (bindingProblems.length > 0) return { problems: bindingProblems, heading: 'the wrangler config does not bind what the Worker needs' }

  const importPath = (file, from = outDir) => JSON.stringify(relative(from, file).split('\\').join('/'))
  // Imports of the entry, which may sit in a folder of its own (toolroute deploy's deploy/worker.ts).
  const entryPath = join(outDir, entryFile)
  const fromEntry = (file) => importPath(file, dirname(entryPath)).replace(/^"(?!\.)/, '"./')
  const header = '// Generated by `toolroute build` from tools/: do not edit, do not commit.\n'
  const toolsModule = `${header}${files.map((file, index) => `import * as m${index} from ${importPath(join(toolsDir, file))}`).join('\n')}
import { isTool, type AnyTool } from 'toolroute'

/** Every tool exported by a file in tools/. */
export const tools: AnyTool[] = [${files.map((_, index) => `...Object.values(m${index})`).join(', ')}].filter((value: unknown): value is AnyTool => isTool(value))

/** The served tools' own types, one per id: \`createToolClient<Tools>()\` infers each call's input and output. */
export type Tools = [${routes.map(({ module, exportName }) => `typeof ${module}[${JSON.stringify(exportName)}]`).join(', ')}]
`
  // The playground's page is imported only when the Worker can serve it: never with `playground:
  // false`, and in a deploy build only with `playground: true` (on by default means on localhost,
  // where a deployed Worker is not). Without it `GET /` answers 404 (src/http/mount-playground.ts).
  const playground = deploy ? config.playground === true : config.playground !== false
  // So is MCP: with `mcp: false` the entry passes no `mcpServer`, and the Worker bundles no MCP SDK
  // (a McpSessionObject the wrangler config declares is then a stand-in, below).
  const mcp = config.mcp !== false
  // And the run store: only when a call can reach a run (a tool that waits for approval, suspends or
  // runs in the background, an Idempotency-Key honoured, storeRuns: 'all') and the config brings no
  // `runs` of its own. Without it the Worker bundles no run engine (nor its ToolRunObject but as a stand-in).
  // When no tool waits, the only runs are calls stored settled (a key, storeRuns: 'all'), which are
  // only read back: the store of finished runs, without the engine's transitions and background attempts.
  const runStore = keepsRuns && (someToolWaits ? 'workerRunStore' : 'workerFinishedRunStore')
  // And the JSON Schema validator (@cfworker/json-schema): only when a tool has a plain JSON Schema
  // (Zod, Valibot and ArkType validate themselves). Without it such a schema's check fails its call.
  const jsonSchema = routes.some(({ value }) => Object.values(value.schemas ?? {}).some((compiled) => compiled && !isStandardSchema(compiled.source)))
  // And Idempotency-Key: unless the config says `idempotency: false`, the keyed call and the keys'
  // Durable Object (a keyed call stores its run, hence the run store above).
  const keys = config.idempotency !== false
  // Whether this Worker will be served locally, where it must refuse foreign Hosts (DNS rebinding,
  // SPEC §5). Decided here, never from a request (wrangler dev passes a client's own headers
  // through): a deploy build (`toolroute deploy`, `--deploy`) and a build wrangler's [build] hook
  // runs for `wrangler deploy` / `versions upload` (wrangler sets WRANGLER_COMMAND for its hook)
  // are not; `toolroute dev`, the hook under `wrangler dev` and a bare `toolroute build` are. A
  // deployed Worker built locally by mistake refuses its hosts loudly, never the other way round.
  const wranglerCommand = process.env.WRANGLER_COMMAND
  const servedLocally = !deploy && (wranglerCommand === undefined || wranglerCommand === 'dev')
  // And the middleware those need: the Host check only where served locally (here, or by the config's own
  // `servedLocally`), CORS only with the `cors` option, the OAuth resource server (jose) only with `oauth`, OpenTelemetry only with `tracing`.
  const guards = [...(servedLocally || config.servedLocally ? [['hostCheck', 'workerHostCheck']] : []), ...(config.cors ? [['corsMiddleware', 'workerCors']] : []), ...(config.oauth ? [['oauthGuard', builtinOAuth ? 'workerBuiltinOAuth' : 'workerOAuth']] : []), ...(config.tracing ? [['tracer', 'workerTracing']] : [])]
  // And webhooks (SPEC §16): sent from the run objects, so only with the store of runs that wait.
  const webhooks = Array.isArray(config.webhooks) && config.webhooks.length > 0 && runStore === 'workerRunStore'
  if (Array.isArray(config.webhooks) && config.webhooks.length > 0 && !webhooks) console.warn('toolroute: the config has webhooks, but no tool waits or runs in the background: no run will be told')
  // And the routes an app may turn off: `GET /openapi.json` unless `openapi: false`, Mastra's unless `mastra: false`.
  const routeFeatures = [...(config.openapi !== false ? [['openApi', 'workerOpenApi']] : []), ...(config.mastra !== false ? [['mastraRoutes', 'workerMastraRoutes']] : [])]
  const mounted = [...guards, ...(webhooks ? [['webhookSender', 'workerWebhooks']] : []), ...routeFeatures]
  // toolroute as its own authorization server (SPEC §15): the Worker inside `withBuiltinOAuth`, whose `/authorize`
  // is the app's `signIn` module, or, served locally, the local sign-in (which needs no network).
  const local = servedLocally || config.servedLocally === true
  const signIn = builtinOAuth && typeof config.oauth.signIn === 'string' ? config.oauth.signIn : undefined
  if (builtinOAuth && !local && !signIn) return { problems: [`${configFile}: oauth: { provider: 'builtin' } needs signIn: './auth/sign-in.ts' (a module whose default export signs users in) where the Worker is not served locally (docs/auth.md)`], heading: 'the built-in authorization server has no sign-in' }
  if (signIn && !existsSync(join(root, signIn))) return { problems: [`${configFile}: oauth.signIn names ${signIn}, which does not exist`], heading: 'the built-in authorization server has no sign-in' }
  // MCP sessions live in Durable Objects only where the wrangler config binds TOOLROUTE_MCP (any env); without
  // it (and no `mcp.sessions` of the config's own) MCP is stateless, and the entry passes the MCP without the
  // session object (nor the 2025 session transport).
  const wrangler = readWranglerConfig(root)
  const keepsSessions = !wrangler || (config.mcp?.sessions !== undefined && config.mcp.sessions !== false) || [wrangler.config, ...Object.values(wrangler.config.env ?? {})].some((scope) => scope?.durable_objects?.bindings?.some?.((binding) => binding?.name === 'TOOLROUTE_MCP'))
  const mcpServer = mcp && (keepsSessions ? 'workerMcpServer' : 'workerStatelessMcpServer')
  const imports = ['createWorker', ...(builtinOAuth ? ['withBuiltinOAuth'] : []), ...(mcpServer ? [mcpServer] : []), ...(runStore ? [runStore] : []), ...(playground ? ['loadPlaygroundPage'] : []), ...(jsonSchema ? ['workerJsonSchema'] : []), ...(keys ? ['workerKeyStore'] : []), ...mounted.map(([, name]) => name)]
  const passed = [...(mcpServer ? [`mcpServer: ${mcpServer}`] : []), ...(runStore ? [`runStore: ${runStore}`] : []), ...(playground ? ['playgroundPage: loadPlaygroundPage'] : []), ...(jsonSchema ? ['jsonSchema: workerJsonSchema'] : []), ...(keys ? ['keyStore: workerKeyStore'] : []), ...mounted.map(([option, name]) => `${option}: ${name}`)]
  // The Durable Object classes: the Worker's for what it has, a stand-in for what the project's
  // wrangler config declares and the Worker leaves out (a deploy refuses a declared class the
  // script does not export). Without a wrangler config, every class is declared.
  const objects = durableObjectExports({ declared: wrangler ? declaredClasses(wrangler.config) : new Set(['ToolRunObject', 'McpSessionObject', 'IdempotencyObject']), runStore, mcp: mcpServer === 'workerMcpServer', keys })
  const entry = `${header}${objects.imports}import { ${imports.join(', ')} } from 'toolroute/workers'
import { tools } from ${fromEntry(join(outDir, 'manifest.ts'))}
${configFile ? `import config from ${fromEntry(join(root, configFile))}` : 'const config = {}'}
${signIn && !local ? `import signIn from ${fromEntry(join(root, signIn))}\n` : ''}
const worker = createWorker({ ${servedLocally ? 'servedLocally: true, ' : ''}...config, tools${passed.map((option) => `, ${option}`).join('')} })

export default ${builtinOAuth ? `withBuiltinOAuth({ fetch: worker.fetch }, { config${local ? ', servedLocally: true' : ', signIn'} })` : '{ fetch: worker.fetch }'}
${objects.exports}`
  writeIfChanged(join(outDir, 'tools.ts'), toolsModule)
  const manifest = createToolManifest(found.tools)
  writeIfChanged(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`)
  writeIfChanged(join(outDir, 'manifest.ts'), manifestModule(manifest, (file) => importPath(join(root, file)), header))
  mkdirSync(dirname(entryPath), { recursive: true })
  writeIfChanged(entryPath, entry)

  const base = typeof config.basePath === 'string' ? config.basePath.replace(/\/+$/, '') : ''
  console.log(`toolroute: ${routes.length} tool${routes.length === 1 ? '' : 's'} from tools/ → .toolroute/${entryFile}${configFile ? ` (with ${configFile})` : ''}`)
  for (const { id, file } of routes) console.log(`  POST ${base}/tools/${encodeURIComponent(id)}  (tools/${file})`)
  // A Standard Schema without Standard JSON Schema validates, but clients see `{}` for it: say so.
  for (const { id, file, value } of routes) {
    for (const [kind, compiled] of Object.entries(value.schemas ?? {})) {
      if (compiled?.describable !== false) continue
      console.warn(
        `toolroute: tool ${JSON.stringify(id)} (tools/${file}): its ${kind === 'requestContext' ? 'requestContextSchema' : `${kind}Schema`} has no JSON Schema ` +
          `(~standard.jsonSchema); it is validated, but listed as {} in GET /tools, /openapi.json and MCP (with Valibot, wrap it in toStandardJsonSchema())`,
      )
    }
  }
  for (const line of connectorReadiness(routes, config)) console.warn(line)
  const credential = unownedCredentialOf(config)
  if (credential) {
    console.warn(
      `toolroute: ${configFile}: resolveRequestContext reads ${JSON.stringify(credential)} but names no principal, and the config has no \`principal\` rule: ` +
        'runs and Idempotency-Keys of requests without an Authorization header would belong to nobody (anyone holding a run id reads and approves it). ' +
        'Return { requestContext, principal } from resolveRequestContext, or set `principal` in the config (SPEC §12; docs/reliability.md "Who owns a run").',
    )
  }
  if (playground) console.log(`  GET  ${base}/  the playground${config.playground === true ? '' : ' (on localhost)'}`)
  console.log(`  GET  ${base}/tools  GET ${base}/tools/:toolId${config.openapi === false ? '' : `  GET ${base}/openapi.json`}${config.mcp === false ? '' : `  ${base}/mcp`}  ${base}/runs/:runId[/events|/approve|/decline|/resume|/cancel]`)
  return { problems: [], routes }
}

/**
 * What the config's `resolveRequestContext` reads of a credential that no default principal
 * covers (a cookie, a session, an API key: `Authorization` is hashed into one), when neither it
 * nor a `principal` rule names a principal. The build cannot run a resolver (it needs a request),
 * so it reads the function's source: a heuristic, which the run time's check (principal-of.ts,
 * warned once in the log when a resolved request with a Cookie ends with no principal) backs up.
 */
function unownedCredentialOf(config) {
  if (typeof config.resolveRequestContext !== 'function' || config.principal !== undefined) return undefined
  const source = Function.prototype.toString.call(config.resolveRequestContext)
  if (/\bprincipal\b/.test(source)) return undefined
  return /cookie|session|api[-_]?key|x-[a-z-]*token/i.exec(source)?.[0]
}

/**
 * `.toolroute/manifest.ts`/**
 * `.toolroute/manifest.ts`: the tools as `LazyTools`. Each module is behind an `import()`, which
 * esbuild (wrangler's bundler) inlines as a lazily initialised module: its top level runs on the
 * first call of one of its tools, never at the Worker's startup. Routes are JSON text, which V8
 * parses faster than the same object literal. The listings (each JSON Schema twice: the
 * descriptor and the MCP entry) are JSON text while small, parsed when a route first serves them: the
 * deployed bundle's own gzip compresses them with the rest (a part gzipped here would reach it as
 * base64, which no gzip shrinks). A large part is gzipped on its own, so that the Worker scans far
 * less text at startup (a multi-megabyte string of a thousand tools' listings slowed it measurably),
 * and decoded on first use (BENCHMARKS.md, Worker startup).
 */
/** A listing part's JSON text up to this length stays text in the manifest; a longer one is gzipped. */
const packThreshold = 32 * 1024

function manifestModule(manifest, importPath, header) {
  const text = (value) => JSON.stringify(JSON.stringify(value))
  const packed = (value) => {
    const json = JSON.stringify(value)
    return JSON.stringify(json.length <= packThreshold ? json : gzipSync(json, { level: 9 }).toString('base64'))
  }
  const { descriptors, mcpTools } = manifest.listings
  return `${header}import { LazyTools } from 'toolroute/workers'

/** Every tool of tools/, listed from the build's manifest; a tool's module is imported on its first call. */
export const tools = new LazyTools({
  modules: [
${manifest.files.map((file) => `    () => import(${importPath(file)}),`).join('\n')}
  ],
  routes: JSON.parse(${text(manifest.routes)}),
  listings: {
    descriptors: ${packed(descriptors)},
    mcpTools: ${packed(mcpTools)},
  },
})
`
}
