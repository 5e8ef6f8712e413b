import { errorMessage, ToolrouteError } from '../errors/toolroute-error.ts'
import { isTool } from '../tool/is-tool.ts'
import type { PackedToolListings, ToolListings, ToolRoute } from './tool-manifest.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/** The manifest `toolroute build` writes into `.toolroute/manifest.ts`. */
export interface LazyToolsOptions {
  /** Each tool module's import, by `ToolRoute.module` (`() => import('../tools/weather-tool.ts')`). */
  modules: readonly (() => Promise<Readonly<Record<string, unknown>>>)[]
  routes: readonly ToolRoute[]
  /** The listings, or each part packed (decoded when first read: startup scans text, not code; BENCHMARKS.md). */
  listings: ToolListings | PackedToolListings
}

/**
 * Tools served from a build's manifest, each module imported on its tool's first call, so startup
 * does not grow with the tools (SPEC §11). As a map it holds the tools loaded so far (`loadTool`
 * loads others); a module that throws fails its tools' calls with `EXECUTION_FAILED`, every time.
 */
export class LazyTools extends Map<string, AnyTool> {
  readonly routes: ReadonlyMap<string, ToolRoute>
  #modules: LazyToolsOptions['modules']
  #listings: ToolListings | PackedToolListings
  #decoded = new Map<string, Promise<unknown>>()
  #loading = new Map<string, Promise<AnyTool>>()

  constructor(options: LazyToolsOptions) {
    super()
    this.routes = new Map(options.routes.map((route) => [route.id, route]))
    this.#modules = options.modules
    this.#listings = options.listings
  }

  /** One part of the listings (descriptors, MCP list), as the build computed it. */
  listing<K extends keyof ToolListings>(key: K): Promise<ToolListings[K]> {
    const value = this.#listings[key]
    if (!this.#decoded.has(key)) this.#decoded.set(key, typeof value === 'string' ? unpack(value) : Promise.resolve(value))
    return this.#decoded.get(key) as Promise<ToolListings[K]>
  }

  /** The tool `id`, its module imported on first use; `undefined` for an id the manifest does not hold. */
  load(id: string): Promise<AnyTool> | undefined {
    const route = this.routes.get(id)
    const importModule = route && this.#modules[route.module]
    if (!route || !importModule) return undefined
    const known = this.#loading.get(id)
    if (known) return known
    // Kept, failed or not: a module that threw is not evaluated twice (it would come back half initialised).
    const loading = importModule().then(
      (exports) => {
        const tool = exports[route.exportName]
        if (!isTool(tool) || tool.id !== id) {
          throw new ToolrouteError('EXECUTION_FAILED', `Tool "${id}" is not exported as ${route.exportName} by ${route.file} any more: run toolroute build again`)
        }
        this.set(id, tool)
        return tool
      },
      (error: unknown) => {
        console.error(`toolroute: ${route.file} (tool "${id}") failed to load:`, error)
        throw new ToolrouteError('EXECUTION_FAILED', `Tool "${id}" failed to load (${route.file}): ${errorMessage(error)}`)
      },
    )
    this.#loading.set(id, loading)
    return loading
  }
}

/** A packed part: JSON text (a listing starts with `[` or `{`, base64 never does), or gzipped JSON in base64. */
async function unpack(packed: string): Promise<unknown> {
  if (packed.startsWith('[') || packed.startsWith('{')) return JSON.parse(packed)
  const bytes = Uint8Array.from(atob(packed), (char) => char.charCodeAt(0))
  return JSON.parse(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text())
}
