import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

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
