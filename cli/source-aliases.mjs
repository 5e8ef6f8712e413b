import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const sources = resolve(import.meta.dirname, '..', 'src')

/** Each public entry of the package, and its source file under src/. */
export const entrySources = {
  toolroute: 'index.ts',
  'toolroute/tools': 'tools.ts',
  'toolroute/workers': 'workers.ts',
  'toolroute/server': 'server.ts',
  'toolroute/client': 'client/index.ts',
  'toolroute/ai': 'ai/index.ts',
  'toolroute/deno': 'adapter/deno/index.ts',
}

/**
 * In toolroute's own repository, 'toolroute' means its sources (the package's exports point at
 * dist/, which only `npm pack` builds); an installed package has no src/, so its dist/ is used.
 */
export function sourceAliases() {
  if (!existsSync(join(sources, 'index.ts'))) return {}
  return Object.fromEntries(Object.entries(entrySources).map(([name, file]) => [name, join(sources, file)]))
}

/**
 * Modules of toolroute's own for the CLI to run in Node (`['tool/collect-tools']`), their exports
 * merged: an installed package's compiled dist/ files; in this repository its sources, bundled by
 * esbuild in memory (several times faster than Node's own type stripping of the same files).
 */
export async function importToolrouteModules(paths) {
  if (!existsSync(join(sources, 'index.ts'))) {
    const modules = await Promise.all(paths.map((path) => import(pathToFileURL(join(sources, '..', 'dist', `${path}.js`)).href)))
    return Object.assign({}, ...modules)
  }
  const { build } = await import('esbuild')
  const contents = paths.map((path) => `export * from ${JSON.stringify(`./${path}.ts`)}`).join('\n')
  const bundled = await build({ stdin: { contents, resolveDir: sources, loader: 'ts' }, bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'silent' })
  return import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`)
}
