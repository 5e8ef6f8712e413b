// The tool core (protocol/, errors/, schema/, tool/, manifest/, events/, runtime/, runs/, idempotency/) must run unchanged on Workers, Deno
// and Node. Its tests run inside workerd too, but vitest-pool-workers turns on nodejs_compat for
// its own runner, so a stray `node:` import would pass there: this test proves it statically.
import { build } from 'esbuild'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const coreDirs = ['src/protocol', 'src/errors', 'src/schema', 'src/tool', 'src/manifest', 'src/events', 'src/runtime', 'src/runs', 'src/idempotency']
const coreFiles = coreDirs.flatMap((dir) =>
  readdirSync(join(root, dir))
    .filter((file) => file.endsWith('.ts') && !/\.test(-d|-helper)?\.ts$/.test(file))
    .map((file) => join(root, dir, file)),
)

describe('the tool core uses web-standard APIs only', () => {
  it('has core files to check', () => {
    expect(coreFiles.length).toBeGreaterThan(15)
  })

  it('bundles for a neutral platform, importing no Node built-in', async () => {
    const result = await build({
      stdin: { contents: coreFiles.map((file) => `export * from ${JSON.stringify(file)}`).join('\n'), resolveDir: root, loader: 'ts' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      metafile: true,
      logLevel: 'silent',
    })
    const inputs = Object.keys(result.metafile.inputs)
    expect(inputs.filter((input) => input.startsWith('node:') || /^(fs|path|crypto|buffer|stream|events|util)$/.test(input))).toEqual([])
    const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((entry) => entry.path))
    expect(imports).toEqual([])
  })

  it.each(coreFiles.map((file) => [relative(root, file), file]))('%s names no Node global and generates no code from strings', (_name, file) => {
    const source = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '')
    for (const forbidden of [/from ['"]node:/, /\brequire\(/, /\bprocess\./, /\bBuffer\b/, /\b__dirname\b/, /\beval\(/, /\bnew Function\b/, /\bsetImmediate\b/]) {
      expect(source).not.toMatch(forbidden)
    }
  })
})
