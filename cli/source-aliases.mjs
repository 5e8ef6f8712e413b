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
 * A module of toolroute's own for the CLI to import in Node (`'tool/collect-tools'`): its source
 * in this repository (Node 22 strips the types; src/ keeps to erasable syntax), its compiled
 * file under dist/ in an installed package.
 */
export function toolrouteModule(path) {
  const file = existsSync(join(sources, 'index.ts')) ? join(sources, `${path}.ts`) : join(sources, '..', 'dist', `${path}.js`)
  return pathToFileURL(file).href
}
