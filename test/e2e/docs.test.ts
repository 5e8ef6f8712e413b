// Every fenced code block of README.md and of every page under docs/, run as a reader would run it:
// in a project made by `toolroute init` from the packed package, with `npm run dev` serving it. Pages
// run in order (README.md first), their blocks in order (docs/README.md says how to write them):
// - sh blocks run in bash; a `# …` comment right after a command is its expected stdout (`…` matches
//   anything, blank lines do not count);
// - a block whose first line names a file (`// tools/x.ts`, `# .dev.vars`) is written there, and taken
//   back when its page ends; other ts blocks are
//   written beside the project's files and run with node; each page's ts blocks are type-checked
//   with the project's own tsc;
// - a block preceded by `<!-- not-run: <reason> -->` is skipped by name, with its reason listed.
// What a test cannot run literally is stood in for, and listed in the output (`standIns` below).
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { parse as parseJsonc } from 'jsonc-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packedPackage, repo } from './packed-package.ts'
import { freePort } from './wrangler-dev.ts'

interface Block {
  page: string
  line: number
  lang: string
  code: string
  notRun?: string
}

/** The fenced blocks of a Markdown page, each with the `not-run` reason on the line before it. */
export function blocksOf(page: string, text: string): Block[] {
  const lines = text.split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)\s*$/.exec(lines[i]!)
    if (!open) continue
    const end = lines.findIndex((line, j) => j > i && line.startsWith(open[1]!) && line.trim() === open[1])
    if (end === -1) throw new Error(`${page}:${i + 1}: a code fence that never closes`)
    const marker = /^<!--\s*not-run(?::\s*(.*?))?\s*-->\s*$/.exec(lines[i - 1] ?? '')
    if (marker && !marker[1]) throw new Error(`${page}:${i}: not-run needs a reason: <!-- not-run: <reason> -->`)
    // `<!-- from: <file> -->`: the block is that file's code, which its own project's tests run.
    const from = /^<!--\s*from:\s*(\S+)\s*-->\s*$/.exec(lines[i - 1] ?? '')?.[1]
    const notRun = marker?.[1] ?? (from ? `a copy of ${from}, run by its own project's tests` : undefined)
    blocks.push({ page, line: i + 1, lang: open[2]!.toLowerCase(), code: lines.slice(i + 1, end).join('\n'), ...(notRun ? { notRun } : {}) })
    i = end
  }
  return blocks
}

const pages = ['README.md', ...markdownUnder(join(repo, 'docs')).map((file) => relative(repo, file)).sort()].filter((page) => page !== 'docs/README.md').concat('docs/README.md')
function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? markdownUnder(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []))
}
const blocks = new Map(pages.map((page) => [page, blocksOf(page, readFileSync(join(repo, page), 'utf8'))]))

const shell = new Set(['sh', 'bash', 'shell'])
const typescript = new Set(['ts', 'typescript'])
/** The file a block's first line names: `// tools/x.ts`, `# .dev.vars`. */
const fileOf = (block: Block) => /^(?:\/\/|#)\s*((?:[\w.-]+\/)*[\w.-]+\.?[\w-]*)\s*$/.exec(block.code.split('\n')[0]!)?.[1]
/** A snippet of Worker code (`toolroute/workers`, `cloudflare:workers`), which Node cannot run: type-checked only. */
const workerdOnly = (block: Block) => typescript.has(block.lang) && !isFile(block) && /from ['"](toolroute\/workers|cloudflare:workers)['"]/.test(block.code)
const isFile = (block: Block) => !shell.has(block.lang) && fileOf(block) !== undefined && /[./]/.test(fileOf(block)!)

const standIns = [
  '`npx toolroute init <dir>` runs the packed tarball\'s own CLI (npx would fetch toolroute from the registry)',
  'a bare `npm install` installs toolroute from the packed tarball (and the rest of package.json as written)',
  '`npm run dev` starts toolroute dev in the background on a free port, waits until it answers, and stops it at the end',
  '`npx deno run … serve.ts` starts in the background on a free port (PORT), waits until it answers, and stops when its page ends',
  'localhost:8787 and localhost:8000 are those servers\' ports',
  'before a page\'s tsc, `npm run types` (wrangler types) runs once, as the project\'s `npm run check` does',
  'a block after `<!-- from: <file> -->` is that file\'s code, run by its own tests: listed as not run',
  'a ts block that imports toolroute/workers or cloudflare:workers (Worker code, which only workerd runs) and names no file is type-checked, not run',
]

const env: Record<string, string | undefined> = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  NO_COLOR: '1',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
}
let work: string
let project: string
let ports: { dev: number; inspector: number; deno: number }

function run(command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}, timeout = 300_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(command, args, { cwd, env: { ...env, ...extraEnv }, timeout, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    ),
  )
}

const rewrite = (text: string) => text.replaceAll('localhost:8787', `127.0.0.1:${ports.dev}`).replaceAll('localhost:8000', `127.0.0.1:${ports.deno}`)

/** One command of an sh block (with its continuation lines) and the output it shows. */
function commandsOf(code: string): { command: string; expected: string[] }[] {
  const commands: { command: string; expected: string[] }[] = []
  let continuing = false
  for (const line of code.split('\n')) {
    if (continuing) commands.at(-1)!.command += `\n${line}`
    else if (/^\s*#/.test(line)) commands.at(-1)?.expected.push(line.replace(/^\s*# ?/, ''))
    else if (line.trim() !== '') commands.push({ command: line, expected: [] })
    continuing = /\\\s*$/.test(line)
  }
  return commands
}

function standIn(command: string): string {
  const bare = command.replace(/\s+#.*$/, '').trim()
  const init = /^npx toolroute init(\s.*)?$/.exec(bare)
  if (init) return `node "$TOOLROUTE_CLI" init${init[1] ?? ''}`
  if (bare === 'npm install') return 'npm install --prefer-offline "$TOOLROUTE_TARBALL"'
  if (/^npm install\s/.test(bare)) return `${bare} --prefer-offline`
  if (bare === 'npm run dev' || bare === 'npx toolroute dev') return `docs_serve dev $DEV_PORT npm run dev -- --port $DEV_PORT -- --ip 127.0.0.1 --inspector-port $INSPECTOR_PORT`
  if (/^npx deno run .*serve\.ts$/.test(bare)) return `PORT=$DENO_PORT docs_serve deno $DENO_PORT ${bare}`
  return rewrite(command)
}

const separator = '\u001edocs-test-command-end'
const prelude = `set -eo pipefail
# docs_serve NAME PORT COMMAND...: starts a server in its own process group unless it runs, waits for it.
docs_serve() {
  local name=$1 port=$2; shift 2
  local pidfile="$DOCS_STATE/$name.pid" log="$DOCS_STATE/$name.log"
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then return 0; fi
  setsid "$@" >"$log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  for _ in $(seq 1 600); do
    local code; code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/tools" || true)
    if [ "$code" != 000 ] && [ "$code" != 503 ]; then return 0; fi
    kill -0 "$(cat "$pidfile")" 2>/dev/null || { cat "$log" >&2; return 1; }
    sleep 0.2
  done
  cat "$log" >&2; return 1
}
`

/**
 * What `toolroute dev` rebuilds on, with modification times (a directory's too: a tool written and
 * removed again within a block changes it): a change means a rebuild to wait for.
 */
function watched(): string {
  const files = ['tools', ...(existsSync(join(project, 'tools')) ? readdirSync(join(project, 'tools'), { recursive: true, encoding: 'utf8' }).map((file) => `tools/${file}`) : []), 'toolroute.config.ts', 'wrangler.toml', 'wrangler.jsonc']
  return files.map((file) => (existsSync(join(project, file)) ? `${file}@${statSync(join(project, file)).mtimeMs}` : '')).join('\n')
}
const state = () => join(work, 'state')
const devLog = () => (existsSync(join(state(), 'dev.log')) ? readFileSync(join(state(), 'dev.log'), 'utf8') : '')
const stamp = () => (existsSync(join(project, '.toolroute/dev/built')) ? statSync(join(project, '.toolroute/dev/built')).mtimeMs : 0)

const serving503 = () => readFileSync(join(project, '.toolroute/worker.ts'), 'utf8').includes('BUILD_FAILED')
const served = () => (existsSync(join(project, '.toolroute/manifest.json')) ? JSON.parse(readFileSync(join(project, '.toolroute/manifest.json'), 'utf8')).files : [])
interface Before {
  stamp: number
  running: boolean
}
const now = (): Before => ({ stamp: stamp(), running: existsSync(join(state(), 'dev.pid')) })

/** Where the dev log's last `toolroute build` report starts: a build's route list, or its 503 notice. */
const lastBuildReport = (log: string) => Math.max(log.lastIndexOf('toolroute: serving 503 BUILD_FAILED'), ...[...log.matchAll(/^toolroute: \d+ tools? from tools\//gm)].map((match) => match.index))

/**
 * Whether wrangler has reloaded since toolroute dev's last build, with no reload left to come. Not
 * "a `restarting build` since the change": wrangler prints that only when it reloads on the build's
 * stamp (watch_dir); a change of its own config reloads through its [build] hook, which waits for the
 * build, and the stamp's own event may then be dropped with the old watcher (no `restarting build`
 * at all, and the Worker served is the new build's).
 */
function reloadedSinceBuild(log: string): boolean {
  const ready = log.lastIndexOf('Local server updated and ready')
  return ready > lastBuildReport(log) && ready > log.lastIndexOf('[custom build] Running') && ready > log.lastIndexOf('restarting build')
}

/**
 * After a change of what toolroute dev watches: a build since the change (and, for a tool file
 * written, one that serves it), wrangler's reload of the last build, and the state the change should
 * end in: a project that builds (the default) or the 503 BUILD_FAILED entry. (A block that writes a
 * broken tool and removes it again has settled only once a good build follows the broken one.)
 */
async function settled(before: Before, { failing = false, tool }: { failing?: boolean; tool?: string } = {}) {
  if (!before.running) return
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (stamp() !== before.stamp && reloadedSinceBuild(devLog()) && serving503() === failing && (!tool || served().includes(tool))) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`toolroute dev did not settle within 90 s:\n${devLog().slice(-3000)}`)
}

async function runShell(block: Block, cwd: string): Promise<string> {
  const commands = commandsOf(block.code)
  const script = `${prelude}\ncd "${cwd}"\n${commands.map(({ command }) => `${standIn(command)}\nprintf '\\n${separator}\\n'`).join('\n')}\n`
  const before = { ...now(), files: watched() }
  const result = await run('bash', ['-c', script], cwd, { TOOLROUTE_CLI: (await packedPackage()).cli, TOOLROUTE_TARBALL: (await packedPackage()).tarball, DOCS_STATE: state(), DEV_PORT: String(ports.dev), INSPECTOR_PORT: String(ports.inspector), DENO_PORT: String(ports.deno) })
  const outputs = result.stdout.split(`\n${separator}\n`)
  const where = `${block.page}:${block.line}`
  expect(result.code, `${where} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}\n--- dev server\n${devLog().slice(-3000)}`).toBe(0)
  commands.forEach(({ command, expected }, index) => {
    if (expected.length === 0) return
    const actual = `${outputs[index]!.replaceAll('\r', '').split('\n').filter((line) => line.trim() !== '').join('\n')}\n`
    // `…` within a line matches anything; a line that is only `…` stands for any number of lines.
    const escape = (line: string) => line.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?')
    const pattern = expected.filter((line) => line.trim() !== '').map((line) => (line.trim() === '…' ? '(?:[^\\n]*\\n)*?' : `${escape(line)}\\n`)).join('')
    expect(actual, `${where}: the output of ${command}`).toMatch(new RegExp(`^${pattern}$`))
  })
  if (watched() !== before.files) await settled(before)
  return result.stdout
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'toolroute-docs-'))
  mkdirSync(state())
  // The repository's Node 22 alone on PATH: no tool of the repository's stands in for one the docs install.
  mkdirSync(join(work, 'bin'))
  symlinkSync(process.execPath, join(work, 'bin/node'))
  env.PATH = `${join(work, 'bin')}:${process.env.PATH}`
  project = join(work, 'my-tools')
  ports = { dev: await freePort(), inspector: await freePort(), deno: await freePort() }
  await packedPackage()
  console.log(`docs test: stand-ins for what a test cannot run literally:\n${standIns.map((line) => `  - ${line}`).join('\n')}`)
}, 600_000)

afterAll(async () => {
  for (const name of ['dev', 'deno']) stopServer(name)
  const excluded = [...blocks.values()].flat().filter((block) => block.notRun)
  console.log(`docs test: ${excluded.length} blocks not run, by name:\n${excluded.map((block) => `  - ${block.page}:${block.line} (${block.lang || 'text'}): ${block.notRun}`).join('\n')}`)
  if (work) rmSync(work, { recursive: true, force: true })
}, 60_000)

function stopServer(name: string) {
  const pidfile = join(state(), `${name}.pid`)
  if (!work || !existsSync(pidfile)) return
  const pid = Number(readFileSync(pidfile, 'utf8'))
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    try {
      process.kill(-pid, signal)
    } catch {}
  }
  rmSync(pidfile)
}

/** A block that imports Node's own modules (a receiver beside the app) is checked by running it under Node, not by the Worker project's tsc. */
const nodeOnly = (block: { code: string }) => /from 'node:/.test(block.code)

for (const page of pages.filter((page) => blocks.get(page)!.length > 0)) {
  describe(page, () => {
    const written = new Map<string, string | undefined>()
    const snippets: string[] = []
    const untyped = new Set<string>()

    for (const block of blocks.get(page)!) {
      const name = `${page}:${block.line} ${block.lang || 'text'}${isFile(block) ? ` ${fileOf(block)}` : workerdOnly(block) ? ' (type-checked only: it imports what runs in workerd alone)' : ''}`
      if (block.notRun) {
        it.skip(`${name} (not run: ${block.notRun})`, () => {})
        continue
      }
      it(name, async () => {
        if (shell.has(block.lang)) {
          await runShell(block, /\btoolroute init\b/.test(block.code) ? work : project)
        } else if (isFile(block)) {
          const file = fileOf(block)!
          const path = join(project, file)
          const text = typescript.has(block.lang) ? `${block.code}\n` : `${block.code.split('\n').slice(1).join('\n')}\n`
          const was = existsSync(path) ? readFileSync(path, 'utf8') : undefined
          if (was === text) return // as toolroute init wrote it: nothing to rebuild
          if (!written.has(file)) written.set(file, was)
          const before = now()
          mkdirSync(dirname(path), { recursive: true })
          writeFileSync(path, text)
          if (/^(tools\/|toolroute\.config\.|wrangler\.|\.dev\.vars$)/.test(file)) await settled(before, file.startsWith('tools/') ? { tool: file } : {})
        } else if (typescript.has(block.lang)) {
          const file = `docs-snippet-${page.replace(/\W+/g, '-')}-${block.line}.ts`
          snippets.push(file)
          if (nodeOnly(block)) untyped.add(file)
          writeFileSync(join(project, file), `${rewrite(block.code)}\n`)
          if (workerdOnly(block)) return // type-checked with its page
          const result = await run(process.execPath, [file], project)
          expect(result.code, `${page}:${block.line} exited ${result.code}\n${result.stdout}\n${result.stderr}`).toBe(0)
        } else {
          throw new Error(`${page}:${block.line}: a ${block.lang || 'plain'} block can run only as a file its first line names; else mark it <!-- not-run: <reason> -->`)
        }
      }, 600_000)
    }

    const checked = blocks.get(page)!.filter((block) => !block.notRun && typescript.has(block.lang) && !nodeOnly(block))
    if (checked.length > 0) {
      it(`${page}: its ts blocks type-check with the project's tsc`, async () => {
        // As the project's `npm run check` does: its tsconfig names what `wrangler types` writes.
        if (!existsSync(join(project, 'worker-configuration.d.ts'))) expect((await run('npm', ['run', 'types'], project)).code).toBe(0)
        const config = parseJsonc(readFileSync(join(project, 'tsconfig.json'), 'utf8'))
        // Incremental: each page's check reuses what the pages before it checked.
        writeFileSync(join(project, 'tsconfig.docs.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { incremental: true, tsBuildInfoFile: join(work, 'docs.tsbuildinfo') }, include: [...(config.include ?? []), ...snippets.filter((file) => !untyped.has(file))] }))
        const result = await run(join(project, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'tsconfig.docs.json'], project)
        expect(result.stdout + result.stderr).toBe('')
        expect(result.code).toBe(0)
      }, 120_000)
    }

    afterAll(async () => {
      if (!project) return
      stopServer('deno')
      const before = { ...now(), files: watched() }
      for (const [file, text] of written) (text === undefined ? rmSync(join(project, file), { force: true }) : writeFileSync(join(project, file), text))
      for (const file of [...snippets, 'tsconfig.docs.json']) rmSync(join(project, file), { force: true })
      if (watched() !== before.files) await settled(before)
    }, 120_000)
  })
}

// What docs/cli.md says of toolroute dev and the wrangler config, which a block cannot show without a
// race: a binding removed from wrangler.toml is a 503 BUILD_FAILED naming it, and saving the fixed
// file serves again, with no tool file saved in between.
describe('toolroute dev re-reads the wrangler config', () => {
  it('a missing binding answers 503 BUILD_FAILED naming it; the fixed wrangler.toml serves again', async () => {
    const file = join(project, 'wrangler.toml')
    const fixed = readFileSync(file, 'utf8')
    const get = async () => {
      const response = await fetch(`http://127.0.0.1:${ports.dev}/tools/greet`)
      return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } }
    }
    /** Asks the served Worker until it answers `status` (an upper bound only: the dev server's reload is what it waits for). */
    const answering = async (status: number) => {
      const deadline = Date.now() + 90_000
      let answer = await get().catch(() => undefined)
      while (answer?.status !== status && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        answer = await get().catch(() => undefined)
      }
      expect(answer?.status, `the served Worker never answered ${status}:\n${devLog().slice(-3000)}`).toBe(status)
      return answer!
    }
    let before = now()
    writeFileSync(file, fixed.replace(/\[\[durable_objects\.bindings\]\]\nname = "TOOLROUTE_IDEMPOTENCY"\nclass_name = "IdempotencyObject"\n/, ''))
    expect(readFileSync(file, 'utf8')).not.toContain('TOOLROUTE_IDEMPOTENCY"')
    // What the Worker serves is the test: the dev log is only read to leave the server settled.
    const broken = await answering(503)
    expect(broken.body.error.code).toBe('BUILD_FAILED')
    expect(broken.body.error.message).toContain('no Durable Object binding TOOLROUTE_IDEMPOTENCY')
    await settled(before, { failing: true })
    before = now()
    writeFileSync(file, fixed)
    expect((await answering(200)).status).toBe(200)
    await settled(before)
  }, 240_000)
})
