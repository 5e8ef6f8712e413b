// Issue #49: a fresh project's `tsc --noEmit` failed ("Cannot find type definition file for
// './worker-configuration.d.ts'") until `npm run check` had run `wrangler types`, so editors showed
// errors from minute one. The project `toolroute init` writes now generates what tsc reads on
// `npm install` (its postinstall): here, on a project whose node_modules is this repository's.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
// @ts-expect-error: the CLI is plain JavaScript without declarations
import { init } from '../../cli/init.mjs'

const repo = resolve(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'toolroute-init-types-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const run = (command: string, args: string[], cwd: string) =>
  new Promise<{ code: number; out: string }>((done) =>
    execFile(command, args, { cwd, env: { ...process.env, PATH: `${join(repo, 'node_modules/.bin')}:${process.env.PATH}`, WRANGLER_SEND_METRICS: 'false' }, timeout: 120_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    ),
  )

describe('a project toolroute init writes type-checks from its first minute', () => {
  it("npm install's postinstall writes worker-configuration.d.ts, and wrangler types no longer asks for @types/node", async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    expect(init(join(dir, 'app'))).toBe(0)
    vi.restoreAllMocks()
    const app = join(dir, 'app')
    symlinkSync(join(repo, 'node_modules'), join(app, 'node_modules'))
    const tsc = [join(repo, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.']
    const missing = /worker-configuration\.d\.ts/
    expect((await run(process.execPath, tsc, app)).out).toMatch(missing) // what npm install's postinstall prevents
    const { scripts } = (await import(join(app, 'package.json'), { with: { type: 'json' } })).default as { scripts: Record<string, string> }
    const [types] = scripts.postinstall!.split(' && ')
    expect(types).toBe('wrangler types')
    const generated = await run('npx', types!.split(' '), app)
    expect(generated.code, generated.out).toBe(0)
    expect(generated.out).not.toMatch(/@types\/node/)
    expect(existsSync(join(app, 'worker-configuration.d.ts'))).toBe(true)
    // What is left is toolroute itself, which this repository does not install in its own node_modules.
    expect((await run(process.execPath, tsc, app)).out).not.toMatch(missing)
  }, 120_000)
})
