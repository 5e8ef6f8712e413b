// Issue #49: under `npm test` in a project `toolroute init` writes, a tool's stack trace named line 12
// of a file whose `throw` is on line 10 (the code workerd ran, without its source map), where
// `toolroute dev` named the right one. Here: that project, with its own vitest.config.ts, runs a test
// of a tool that throws, in workerd through the Cloudflare vitest plugin; the stack toolroute logs
// names tools/boom.ts at the `throw`'s line and column. 'toolroute' is this repository's sources,
// as a package in the project's node_modules (the packed package's end to end is test/e2e's).
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { entrySources } from '../../cli/source-aliases.mjs'
// @ts-expect-error: the CLI is plain JavaScript without declarations
import { init } from '../../cli/init.mjs'

const repo = resolve(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'toolroute-init-source-maps-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const boom = `import { createTool } from 'toolroute'
import { z } from 'zod'

/** Fails on purpose. */
export const boom = createTool({
  id: 'boom',
  description: 'Fails',
  inputSchema: z.object({}),
  execute: async () => {
    throw new Error('boom')
  },
})
`
const boomTest = `import { createTestClient } from 'toolroute/testing'
import { expect, it } from 'vitest'

it('fails', async () => {
  await expect(createTestClient().call('boom', {})).rejects.toThrow('boom')
})
`

/** The project's node_modules: this repository's, and 'toolroute' as a package of its sources and CLI. */
function linkModules(app: string) {
  const modules = join(app, 'node_modules')
  mkdirSync(join(modules, 'toolroute'), { recursive: true })
  for (const name of readdirSync(join(repo, 'node_modules'))) symlinkSync(join(repo, 'node_modules', name), join(modules, name))
  for (const name of ['src', 'cli']) symlinkSync(join(repo, name), join(modules, 'toolroute', name))
  const exports = Object.fromEntries(Object.entries(entrySources).map(([name, file]) => [name.replace(/^toolroute/, '.'), `./src/${file}`]))
  const manifest = { name: 'toolroute', type: 'module', exports: { ...exports, './testing': './src/testing/index.ts', './package.json': './package.json' } }
  writeFileSync(join(modules, 'toolroute/package.json'), JSON.stringify(manifest))
}

describe('npm test in a project toolroute init writes', () => {
  it("names the line of the tool's own source in its stack trace", async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    expect(init(join(dir, 'app'))).toBe(0)
    vi.restoreAllMocks()
    const app = join(dir, 'app')
    linkModules(app)
    writeFileSync(join(app, 'tools/boom.ts'), boom)
    writeFileSync(join(app, 'test/boom.test.ts'), boomTest)
    const vitest = join(repo, 'node_modules/vitest/vitest.mjs')
    const { code, out } = await new Promise<{ code: number; out: string }>((done) =>
      execFile(process.execPath, [vitest, 'run', 'test/boom.test.ts'], { cwd: app, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', WRANGLER_SEND_METRICS: 'false' }, timeout: 120_000 }, (error, stdout, stderr) =>
        done({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
      ),
    )
    expect(code, out).toBe(0)
    const frame = /toolroute: tool boom failed[^\n]*\n\s+at execute \(([^)]+)\)/.exec(out)?.[1]
    // `throw new Error` is line 10; `new Error` starts at column 11 (what V8 names for a thrown error).
    expect(frame, out).toBe(`${join(app, 'tools/boom.ts')}:10:11`)
  }, 150_000)
})
