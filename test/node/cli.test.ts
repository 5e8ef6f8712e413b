// The `toolroute` command's own surface: help, usage errors, init. (Builds: build-tools.test.ts;
// dev and deploy on a packed install: test/e2e/package.test.ts.)
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM of the CLI, without types
import { nodeVersionProblem } from '../../cli/node-version.mjs'

const cli = resolve(import.meta.dirname, '../../cli/toolroute.mjs')
const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolroute-cli-'))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function toolroute(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(process.execPath, [cli, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env } }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  )
}

describe('toolroute', () => {
  it('--help lists the commands; no command is a usage error (2)', async () => {
    const help = await toolroute(['--help'])
    expect(help.code).toBe(0)
    for (const command of ['init [dir]', 'build', 'dev [--port N]', 'deploy [--dry-run]']) expect(help.stdout).toContain(command)
    const bare = await toolroute([])
    expect(bare.code).toBe(2)
  })

  it.each(['init', 'build', 'dev', 'deploy'])('%s --help prints its usage and does nothing else', async (command) => {
    const dir = tempDir()
    const result = await toolroute([command, '--help'], { cwd: dir })
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(new RegExp(`^Usage: toolroute ${command}`))
    expect(existsSync(join(dir, 'package.json')) || existsSync(join(dir, '.toolroute'))).toBe(false)
  })

  it('deploy --help names every option it takes, --outdir included', async () => {
    const { stdout } = await toolroute(['deploy', '--help'])
    for (const option of ['--dry-run', '--outdir D', '-- <wrangler deploy options>']) expect(stdout).toContain(option)
  })

  it('refuses a Node older than 22.12 before anything else, saying how to get a current one; init runs on it', async () => {
    for (const old of ['20.20.2', '22.11.0', '18.0.0']) expect(nodeVersionProblem(old)).toContain(`Node ${old} is too old`)
    for (const current of ['22.12.0', '22.23.3', '24.0.0', '25.1.0']) expect(nodeVersionProblem(current)).toBeUndefined()
    expect(nodeVersionProblem('20.20.2')).toMatch(/nvm install 22[\s\S]*npx -p node@22[\s\S]*npm install -D node@22/)
    // The machine's own Node, where it is an old one (20 here and in CI): build exits 1, writing nothing;
    // init writes the project, whose `node` dev dependency runs its scripts on 22 (the README's first command).
    const system = ['/usr/bin/node', '/usr/local/bin/node'].find((node) => existsSync(node))
    if (!system) return
    const version = await new Promise<string>((done) => execFile(system, ['-p', 'process.versions.node'], (_, out) => done(out.trim())))
    if (!nodeVersionProblem(version)) return
    const dir = tempDir()
    const onSystem = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
        execFile(system, [cli, ...args], { cwd: dir }, (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr })),
      )
    mkdirSync(join(dir, 'tools'))
    const built = await onSystem(['build'])
    expect(built.code).toBe(1)
    expect(built.stderr).toContain(`toolroute: Node ${version} is too old: toolroute and wrangler need Node 22.12 or later.`)
    expect(existsSync(join(dir, '.toolroute'))).toBe(false)
    const initialized = await onSystem(['init', 'x'])
    expect(initialized.stderr).toBe('')
    expect(initialized.code).toBe(0)
    expect(initialized.stdout).toContain('Its scripts run on Node 22.')
    expect(JSON.parse(readFileSync(join(dir, 'x/package.json'), 'utf8')).devDependencies.node).toMatch(/^22\./)
  })

  it('refuses unknown commands and options, and a --port that is not a number, with 2', async () => {
    const unknown = await toolroute(['serve'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown command "serve"')
    const option = await toolroute(['build', '--fast'])
    expect(option.code).toBe(2)
    expect(option.stderr).toContain("Unknown option '--fast'")
    const port = await toolroute(['dev', '--port', 'eighty'])
    expect(port.code).toBe(2)
    expect(port.stderr).toContain('--port must be a port number, got eighty')
  })

  it('init writes a project whose package.json, wrangler.toml and example tool fit together', async () => {
    const dir = tempDir()
    const result = await toolroute(['init', 'My Tools'], { cwd: dir })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const project = join(dir, 'My Tools')
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))
    expect(manifest.name).toBe('my-tools')
    expect(manifest.scripts).toEqual({
      dev: 'toolroute dev',
      build: 'toolroute build',
      deploy: 'toolroute deploy',
      test: 'vitest run',
      types: 'wrangler types',
      check: 'wrangler types && toolroute build && tsc --noEmit',
      postinstall: 'wrangler types && toolroute build --lenient',
    })
    expect(Object.keys(manifest.dependencies)).toEqual(['toolroute', 'zod'])
    // The test toolchain at the versions toolroute is tested with, one wrangler and miniflare in the tree.
    const own = JSON.parse(readFileSync('package.json', 'utf8'))
    for (const name of ['@cloudflare/vitest-plugin', 'miniflare', 'vite', 'vitest', 'wrangler']) expect(manifest.devDependencies[name], name).toBe(own.devDependencies[name])
    // Node 22 for every script, on a machine whose default Node is older (issue #49), said at init.
    expect(manifest.devDependencies.node).toBe(own.devDependencies.node)
    expect(result.stdout).toContain(`Its scripts run on Node ${own.devDependencies.node}`)
    expect(manifest.overrides).toEqual({ vite: own.devDependencies.vite, '@cloudflare/vitest-plugin': { wrangler: '$wrangler', miniflare: '$miniflare' } })
    expect(readFileSync(join(project, 'vitest.config.ts'), 'utf8')).toContain("cloudflareTest({ wrangler: { configPath: './wrangler.toml' }")
    expect(readFileSync(join(project, 'test/greet.test.ts'), 'utf8')).toContain("from 'toolroute/testing'")
    const wrangler = readFileSync(join(project, 'wrangler.toml'), 'utf8')
    expect(wrangler).toContain('main = ".toolroute/worker.ts"')
    expect(wrangler).toContain('command = "npx toolroute build"')
    expect(wrangler).toContain('watch_dir = [".toolroute/dev"]')
    expect(wrangler).toMatch(/name = "TOOLROUTE_RUNS"\nclass_name = "ToolRunObject"/)
    expect(wrangler).toMatch(/name = "TOOLROUTE_MCP"\nclass_name = "McpSessionObject"/)
    expect(wrangler).toMatch(/name = "TOOLROUTE_IDEMPOTENCY"\nclass_name = "IdempotencyObject"/)
    expect(wrangler).toContain('new_sqlite_classes = ["ToolRunObject", "McpSessionObject", "IdempotencyObject"]')
    expect(wrangler).not.toContain('[alias]') // the package leaves Ajv out by itself
    expect(readFileSync(join(project, 'tools/greet.ts'), 'utf8')).toContain("id: 'greet'")
    expect(readFileSync(join(project, '.gitignore'), 'utf8')).toContain('.toolroute/')
    expect(JSON.parse(readFileSync(join(project, 'tsconfig.json'), 'utf8')).compilerOptions).toMatchObject({ strict: true, skipLibCheck: true })
  })

  it('init refuses a directory that already holds a project, and changes nothing in it', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'package.json'), '{"name":"mine"}\n')
    const result = await toolroute(['init'], { cwd: dir })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('already holds package.json')
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe('{"name":"mine"}\n')
    expect(existsSync(join(dir, 'tools'))).toBe(false)
  })

  it("build --lenient (a new project's postinstall) prints a broken tool's error and exits 0, so an install goes on", async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'tools'))
    writeFileSync(join(dir, 'tools/broken.ts'), 'export const = 1\n')
    const strict = await toolroute(['build', dir])
    expect(strict.code).toBe(1)
    const lenient = await toolroute(['build', '--lenient', dir])
    expect(lenient.code).toBe(0)
    expect(lenient.stderr).toContain('broken.ts')
    expect(lenient.stderr).toContain('npm run check or npm run dev will say so again')
  })

  it('build is a no-op when toolroute dev or deploy already builds (TOOLROUTE_BUILT=1, wrangler\'s [build] hook)', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'broken.ts'), 'export const = 1\n')
    const result = await toolroute(['build', dir], { env: { TOOLROUTE_BUILT: '1' } })
    expect(result.code).toBe(0)
    expect(existsSync(join(dir, '.toolroute'))).toBe(false)
  })
})
