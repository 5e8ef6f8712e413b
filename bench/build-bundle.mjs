// Bundles TypeScript from the repo (src/, tools/) into bench/.build/<name>.mjs with esbuild, so
// benchmarks on Node 20 (which cannot import .ts) run toolroute's real code, minified as a
// Worker bundle would be. `toolroute` resolves to src/, as the package's own exports do.
import { build } from 'esbuild'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')

/**
 * @param {string} name file name under bench/.build/ (without extension)
 * @param {string} contents the entry module's source (TypeScript), imports relative to the repo root
 * @param {{ platform?: 'neutral' | 'node' }} [options] `node`: for code that imports Node's modules (tracing/'s AsyncLocalStorage)
 * @returns {Promise<string>} the bundle's file URL, ready for `import()`
 */
export async function bundleToolroute(name, contents, { platform = 'neutral' } = {}) {
  const outdir = join(here, '.build')
  mkdirSync(outdir, { recursive: true })
  const outfile = join(outdir, `${name}.mjs`)
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: `${name}-entry.ts` },
    bundle: true,
    format: 'esm',
    platform,
    target: 'es2022',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
    minify: process.env.BENCH_MINIFY !== '0',
    sourcemap: 'linked',
    alias: { toolroute: join(root, 'src/index.ts') },
    outfile,
    logLevel: 'warning',
  })
  return new URL(`file://${outfile}`).href
}
