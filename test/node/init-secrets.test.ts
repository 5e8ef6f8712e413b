// A secret reads the same on Workers, Deno and Node (docs/secrets.md): `process.env.NAME`. On Workers
// process.env holds the vars and secrets once Node.js compatibility is on, which the compatibility date
// `toolroute init` writes turns on without a flag (an older date needs `nodejs_compat`: checked below);
// real workerd, configured as that wrangler.toml says, reads a secret there, and the project has the
// types for it. Deno's side: test/deno/load-tools.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Miniflare, convertV4MiniflareOptions, type V4MiniflareOptions } from 'miniflare'
import { afterAll, describe, expect, it, vi } from 'vitest'
// @ts-expect-error: the CLI is plain JavaScript without declarations
import { init } from '../../cli/init.mjs'

const dir = mkdtempSync(join(tmpdir(), 'toolroute-init-secrets-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('process.env in a project toolroute init writes', () => {
  it('workerd, configured as its wrangler.toml says, reads a secret from process.env', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    expect(init(join(dir, 'app'))).toBe(0)
    vi.restoreAllMocks()
    const toml = readFileSync(join(dir, 'app/wrangler.toml'), 'utf8')
    const compatibilityDate = /^compatibility_date = "([\d-]+)"$/m.exec(toml)?.[1]
    const compatibilityFlags = JSON.parse(/^compatibility_flags = (\[.*\])$/m.exec(toml)?.[1] ?? '[]') as string[]
    const script = `export default { async fetch() { return Response.json({ prefix: globalThis.process?.env?.GREETING_PREFIX ?? null }) } }`
    const prefixOn = async (date: string, flags: string[]) => {
      const miniflare = new Miniflare(convertV4MiniflareOptions({ modules: true, script, compatibilityDate: date, compatibilityFlags: flags, bindings: { GREETING_PREFIX: 'Bonjour' } } as V4MiniflareOptions))
      try {
        return await (await miniflare.dispatchFetch('http://localhost/')).json()
      } finally {
        await miniflare.dispose()
      }
    }
    expect(await prefixOn(compatibilityDate!, compatibilityFlags)).toEqual({ prefix: 'Bonjour' })
    expect(await prefixOn('2025-01-01', [])).toEqual({ prefix: null }) // what docs/secrets.md says of an older date
    const packageJson = JSON.parse(readFileSync(join(dir, 'app/package.json'), 'utf8'))
    expect(packageJson.devDependencies['@types/node']).toMatch(/^\d+\.\d+\.\d+$/) // types process.env; wrangler types asks for it
    expect(JSON.parse(readFileSync(join(dir, 'app/tsconfig.json'), 'utf8')).compilerOptions.types).toEqual(['./worker-configuration.d.ts', 'node'])
  }, 60_000)
})
