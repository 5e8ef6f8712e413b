// A Worker built by `toolroute build` carries @cfworker/json-schema only when one of its tools has
// a plain JSON Schema (SPEC §11), and then checks it: the build's entry passes
// `jsonSchema: workerJsonSchema` to createWorker. Both projects are bundled by
// `wrangler deploy --dry-run` (its own resolution and tree shaking), as a deploy would be; the one
// with a plain JSON Schema is served on workerd.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { outputInputs, pieces } from '../../scripts/bundle-inputs.mjs'
import { fixtureProject, servedFixture } from './fixture-project.ts'

const repo = resolve(import.meta.dirname, '../..')
const config = `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ mcp: false, idempotency: false })\n`
const greet = `import { createTool } from 'toolroute'
import { z } from 'zod'

export const greet = createTool({
  id: 'greet',
  description: 'Say hello',
  inputSchema: z.object({ name: z.string().min(1) }),
  execute: async ({ name }) => ({ message: \`Hello, \${name}!\` }),
})
`
const plain = `import { createTool } from 'toolroute'

export const double = createTool({
  id: 'double',
  description: 'Doubles n (plain JSON Schemas)',
  inputSchema: { type: 'object', properties: { n: { type: 'number' }, lie: { type: 'boolean' } }, required: ['n'], additionalProperties: false },
  outputSchema: { type: 'object', properties: { doubled: { type: 'number' } }, required: ['doubled'] },
  execute: async (input) => {
    const { n, lie } = input as { n: number; lie?: boolean }
    return lie ? { doubled: String(n * 2) } : { doubled: n * 2 }
  },
})
`
const withPlain = fixtureProject('json-schema', { 'toolroute.config.ts': config, 'tools/greet.ts': greet, 'tools/double.ts': plain })
const zodOnly = fixtureProject('no-json-schema', { 'toolroute.config.ts': config, 'tools/greet.ts': greet })

/** What wrangler bundles for a project: the inputs of its output, from `--metafile`. */
async function bundledInputs(wranglerToml: string): Promise<string[]> {
  const outdir = mkdtempSync(join(repo, '.toolroute-test-tmp', 'bundle-'))
  try {
    const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(repo, '.wrangler/logs'), NO_COLOR: '1' }
    await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outdir, '--metafile', '--config', wranglerToml], { cwd: repo, env })
    return Object.keys(outputInputs(JSON.parse(readFileSync(join(outdir, 'bundle-meta.json'), 'utf8'))))
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}
const validatorIn = (inputs: string[]) => inputs.filter((path) => pieces['JSON Schema validator'](path))

const { post } = servedFixture(withPlain)
afterAll(() => zodOnly.remove())

const call = (id: string, body: unknown) => post(`/tools/${id}`, body)

describe('a built Worker with a plain JSON Schema tool', () => {
  it('passes the validator in its entry, and bundles it', async () => {
    expect(readFileSync(join(withPlain.dir, '.toolroute/worker.ts'), 'utf8')).toContain('jsonSchema: workerJsonSchema')
    const inputs = await bundledInputs(join(withPlain.dir, 'wrangler.toml'))
    expect(validatorIn(inputs).some((path) => path.includes('node_modules/@cfworker/json-schema/'))).toBe(true)
  }, 60_000)

  it('answers a valid call, and rejects bad input with INPUT_VALIDATION_FAILED and bad output with OUTPUT_VALIDATION_FAILED', async () => {
    const ok = await call('double', { n: 21 })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ status: 'completed', output: { doubled: 42 } })
    const bad = await call('double', { n: 'one' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ error: { code: 'INPUT_VALIDATION_FAILED', issues: [{ path: ['n'] }] } })
    const extra = await call('double', { n: 1, more: true })
    expect(await extra.json()).toMatchObject({ error: { code: 'INPUT_VALIDATION_FAILED', issues: [{ path: ['more'] }] } })
    const lied = await call('double', { n: 1, lie: true })
    expect(lied.status).toBe(500)
    expect(await lied.json()).toMatchObject({ error: { code: 'OUTPUT_VALIDATION_FAILED' } })
    // Its Zod tool answers as ever.
    expect(await (await call('greet', { name: 'Ada' })).json()).toMatchObject({ output: { message: 'Hello, Ada!' } })
  })
})

describe('a built Worker whose tools all use Standard Schemas', () => {
  it('passes no validator and bundles no @cfworker/json-schema', async () => {
    const wranglerToml = zodOnly.write()
    const inputs = await bundledInputs(wranglerToml)
    expect(readFileSync(join(zodOnly.dir, '.toolroute/worker.ts'), 'utf8')).not.toContain('workerJsonSchema')
    expect(validatorIn(inputs)).toEqual([])
    expect(inputs.some((path) => path.includes('node_modules/zod/'))).toBe(true)
  }, 60_000)
})
