// SPEC §11: an app pays in bundle size only for what it uses. Fixture projects are built by
// `toolroute build` and their generated entry bundled by esbuild as wrangler does (workerd
// conditions, package.json sideEffects honoured); the metafile says which modules reached the output.
import { execFile } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
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

/** Builds a one-tool project and bundles its Worker entry; returns the bundle's input paths and exports. */
async function bundleApp(library: keyof typeof greet, config: Record<string, unknown>): Promise<{ inputs: string[]; exports: string[] }> {
  const dir = join(tmpRoot, `split-${process.pid}-${Math.random().toString(36).slice(2)}`)
  created.push(dir)
  const files = {
    'tools/greet.ts': greet[library],
    'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig(${JSON.stringify(config)})\n`,
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  await promisify(execFile)(process.execPath, [join(repo, 'cli/toolroute.mjs'), 'build', dir], { cwd: repo })
  const stub = join(repo, 'src/mcp/ajv-unavailable.ts')
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
    alias: { ...sourceAliases(), ajv: stub, 'ajv-formats': stub },
    outdir: join(dir, 'out'),
    logLevel: 'silent',
  })
  const output = Object.values(result.metafile.outputs).find((entry) => entry.entryPoint)!
  return { inputs: Object.keys(outputInputs(result.metafile)), exports: output.exports }
}

const carries = (inputs: string[], piece: keyof typeof pieces) => inputs.filter((path) => pieces[piece](path))

describe('a Worker bundles only what its config and tools use', () => {
  it('with mcp: false, no MCP SDK (v1 or v2) and nothing of src/mcp; the Durable Object classes are still exported', async () => {
    const off = await bundleApp('zod', { mcp: false })
    expect(carries(off.inputs, 'MCP SDK')).toEqual([])
    expect(carries(off.inputs, 'src/mcp')).toEqual([])
    expect(off.exports.sort()).toEqual(['IdempotencyObject', 'McpSessionObject', 'ToolRunObject', 'default'])
    // The check can see MCP: the same app with MCP on carries both SDKs.
    const on = await bundleApp('zod', {})
    expect(carries(on.inputs, 'MCP SDK').some((path) => path.includes('@modelcontextprotocol/sdk/'))).toBe(true)
    expect(carries(on.inputs, 'MCP SDK').some((path) => path.includes('@modelcontextprotocol/server/'))).toBe(true)
    expect(carries(on.inputs, 'src/mcp').length).toBeGreaterThan(0)
  }, 60_000)

  it.each(['valibot', 'arktype'] as const)('a %s app without MCP bundles no Zod at all (the framework checks its own bodies by hand)', async (library) => {
    const { inputs, exports } = await bundleApp(library, { mcp: false, playground: false })
    expect(inputs.filter((path) => path.includes('node_modules/zod/'))).toEqual([])
    expect(inputs.filter((path) => path.includes('@hono/zod-validator'))).toEqual([])
    expect(carries(inputs, 'MCP SDK')).toEqual([])
    expect(carries(inputs, 'src/mcp')).toEqual([])
    expect(inputs.some((path) => path.includes(`node_modules/${library}/`))).toBe(true)
    expect(exports).toContain('McpSessionObject')
  }, 60_000)
})
