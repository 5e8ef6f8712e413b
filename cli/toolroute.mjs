#!/usr/bin/env node
// The `toolroute` command: init | build | dev | deploy. Exit status 0 on success, 1 on a build
// error (the message names the file and line), 2 on a usage error.
import { nodeVersionProblem } from './node-version.mjs'

// Before anything else: an old Node would otherwise get as far as wrangler, which refuses it late.
// `init` only writes files, and the project it writes brings Node 22 (its `node` dev dependency), so
// the README's first command works on the machine's own Node, whatever its version.
const tooOld = process.argv[2] === 'init' ? undefined : nodeVersionProblem()
if (tooOld) {
  console.error(tooOld)
  process.exit(1)
}
const { parseArgs } = await import('node:util')

const usage = {
  main: `Usage: toolroute <command> [options]

Commands:
  init [dir]           write a new project (tools/, wrangler.toml, package.json) into dir (default .)
  build [--deploy]     compile tools/ and toolroute.config.ts into .toolroute/ (wrangler's [build] hook)
  dev [--port N]       build, serve with wrangler dev, rebuild on change
  deploy [--dry-run] [--outdir D]
                       build, then wrangler deploy

Needs Node 22.12 or later (init runs on any: the project it writes brings Node 22).
Run \`toolroute <command> --help\` for a command's options.`,
  init: `Usage: toolroute init [dir]

Writes a new toolroute project into dir (default: the current directory, which must not hold a
package.json or tools/ yet): package.json (toolroute, zod, wrangler; scripts dev, build, deploy,
test), tools/ with one example tool, wrangler.toml (entry, Durable Object bindings and migrations,
the build hook), tsconfig.json, .gitignore and a README. Then: npm install && npm run dev`,
  build: `Usage: toolroute build [--deploy] [--lenient] [dir]

Evaluates every tool exported by a file in tools/ (and toolroute.config.ts, if present) in Node
and writes the Worker entry .toolroute/worker.ts, the manifest (.toolroute/manifest.ts and
manifest.json: descriptors, JSON Schemas, MCP list, OpenAPI; the Worker lists its tools from it
and imports a tool's module on its first call) and .toolroute/tools.ts (every tool, and the
Tools type), and checks that the wrangler config (wrangler.json, wrangler.jsonc or wrangler.toml)
binds every Durable Object the Worker uses. wrangler.toml's [build] runs it before every wrangler dev and deploy.
With --deploy (what toolroute deploy builds), the Worker carries the playground page only when
toolroute.config.ts sets playground: true: a deployed Worker is not on localhost, where it is on by default.
Exit status 1 when a tool does not build, with a message naming the file and line (0 with --lenient,
what a new project's npm install runs: a broken tool never stops an install).`,
  dev: `Usage: toolroute dev [--port N] [-- <wrangler dev options>]

Builds and serves the tools locally with wrangler dev (workerd, no account, no network) at
http://localhost:8787 (or --port N), rebuilding on every save in tools/, toolroute.config.ts and
the wrangler config (wrangler.json, wrangler.jsonc or wrangler.toml).
While a tool file does not build, every request answers 503 BUILD_FAILED with the error.
Everything after -- goes to wrangler dev (e.g. -- --ip 0.0.0.0).`,
  deploy: `Usage: toolroute deploy [--dry-run] [--outdir D] [-- <wrangler deploy options>]

Builds for deployment (toolroute build --deploy: the playground page only with playground: true),
then runs wrangler deploy, which uploads (after npx wrangler login).
  --dry-run    bundle without uploading (no account needed)
  --outdir D   write the bundle (worker.js and its source map) into D
  -- ...       everything after -- goes to wrangler deploy (e.g. -- --env staging)
When wrangler.toml's main is .toolroute/worker.ts, the deploy build goes to .toolroute/deploy/worker.ts
instead, so a toolroute dev running meanwhile keeps its build. Exit status 1 when a tool does not build.`,
}

const [command, ...rest] = process.argv.slice(2)

function fail(message, code = 2) {
  console.error(`toolroute: ${message}`)
  process.exit(code)
}

/** Parses a command's options; everything after `--` goes to wrangler untouched. */
function parse(name, options, args) {
  const split = args.indexOf('--')
  const own = split === -1 ? args : args.slice(0, split)
  const passthrough = split === -1 ? [] : args.slice(split + 1)
  try {
    const parsed = parseArgs({ args: own, options: { help: { type: 'boolean', short: 'h' }, ...options }, allowPositionals: true })
    if (parsed.values.help) {
      console.log(usage[name])
      process.exit(0)
    }
    return { ...parsed, passthrough }
  } catch (error) {
    fail(`${error.message}\n\n${usage[name]}`)
  }
}

switch (command) {
  case undefined:
  case '-h':
  case '--help':
  case 'help':
    console.log(usage.main)
    process.exit(command === undefined ? 2 : 0)
    break
  case 'init': {
    const { positionals } = parse('init', {}, rest)
    if (positionals.length > 1) fail(`init takes one directory, got ${positionals.join(' ')}\n\n${usage.init}`)
    const { init } = await import('./init.mjs')
    process.exit(init(positionals[0] ?? '.'))
    break
  }
  case 'build': {
    const { values, positionals } = parse('build', { deploy: { type: 'boolean' }, lenient: { type: 'boolean' } }, rest)
    if (positionals.length > 1) fail(`build takes one directory, got ${positionals.join(' ')}\n\n${usage.build}`)
    const { buildTools } = await import('./build-tools.mjs')
    // Under `toolroute deploy` and `toolroute dev`, they build themselves and wrangler's [build]
    // hook has nothing left to do; under dev it waits for a build newer than the files it reads
    // (wrangler runs it when its own config changes, then bundles at once).
    if (process.env.TOOLROUTE_BUILT === 'dev') await (await import('./dev-build-current.mjs')).devBuildCurrent(positionals[0] ?? '.')
    if (process.env.TOOLROUTE_BUILT === '1' || process.env.TOOLROUTE_BUILT === 'dev') process.exit(0)
    const { problems } = await buildTools(positionals[0] ?? '.', { deploy: values.deploy === true })
    // --lenient (npm install's postinstall in a project init writes): a tool that does not build never stops an install.
    if (problems.length > 0 && values.lenient) console.error('toolroute: the build above failed; npm run check or npm run dev will say so again')
    process.exit(problems.length === 0 || values.lenient ? 0 : 1)
    break
  }
  case 'dev': {
    const { values, passthrough } = parse('dev', { port: { type: 'string', short: 'p' } }, rest)
    if (values.port !== undefined && !/^\d{1,5}$/.test(values.port)) fail(`--port must be a port number, got ${values.port}`)
    const { dev } = await import('./dev.mjs')
    process.exit(await dev({ root: '.', port: values.port, wranglerArgs: passthrough }))
    break
  }
  case 'deploy': {
    const { values, passthrough } = parse('deploy', { 'dry-run': { type: 'boolean' }, outdir: { type: 'string' } }, rest)
    const { deploy } = await import('./deploy.mjs')
    process.exit(await deploy({ root: '.', dryRun: values['dry-run'] === true, outdir: values.outdir, wranglerArgs: passthrough }))
    break
  }
  default:
    fail(`unknown command ${JSON.stringify(command)}\n\n${usage.main}`)
}
