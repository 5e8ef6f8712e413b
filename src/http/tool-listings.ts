import { LazyTools } from '../tool/lazy-tools.ts'
import type { OpenApiDocument, ToolListings } from '../tool/tool-manifest.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { toMcpTool } from '../mcp/to-mcp-tool.ts'
import { createOpenApiDocument, openApiInfo } from './openapi.ts'
import { toToolDescriptor } from './tool-descriptor.ts'

export interface ToolListingsOptions {
  basePath: string
  server?: { name: string; version: string } | undefined
}

/**
 * What the listing routes serve, computed from the tools themselves: `toolroute build` writes it
 * into the manifest, and an app of plain tools computes it on its first listing (reading each
 * schema's JSON Schema, which a Standard Schema computes when first read).
 */
export function createToolListings(tools: readonly AnyTool[], options: ToolListingsOptions): ToolListings {
  return {
    basePath: options.basePath,
    ...(options.server ? { server: options.server } : {}),
    descriptors: tools.map(toToolDescriptor),
    mcpTools: tools.map(toMcpTool),
    openApi: createOpenApiDocument(tools, options) as OpenApiDocument,
  }
}

/** What an app's listing routes serve, each part computed or decoded once, on first use. */
export interface AppListings {
  descriptors(): Promise<ToolDescriptor[]>
  openApi(): Promise<OpenApiDocument>
}

const once = <T>(compute: () => T | Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined
  return () => (value ??= Promise.resolve().then(compute))
}
const trimmed = (basePath: string) => basePath.replace(/\/$/, '')

/**
 * A registry's listings for an app mounted at `options.basePath`: the manifest's, read without
 * evaluating a tool module (its OpenAPI paths moved when the app is mounted elsewhere than the
 * build assumed), or computed from the tools.
 */
export function toolListingsOf(tools: ReadonlyMap<string, AnyTool>, options: ToolListingsOptions): AppListings {
  if (!(tools instanceof LazyTools)) {
    return { descriptors: once(() => [...tools.values()].map(toToolDescriptor)), openApi: once(() => createOpenApiDocument([...tools.values()], options) as OpenApiDocument) }
  }
  return { descriptors: once(() => tools.listing('descriptors')), openApi: once(async () => rebased(await tools.listing('openApi'), tools.builtFor, options)) }
}

function rebased(document: OpenApiDocument, builtFor: ToolListingsOptions, options: ToolListingsOptions): OpenApiDocument {
  const [from, to] = [trimmed(builtFor.basePath), trimmed(options.basePath)]
  const sameServer = JSON.stringify(builtFor.server ?? null) === JSON.stringify(options.server ?? null)
  if (from === to && sameServer) return document
  const paths = Object.fromEntries(Object.entries(document.paths).map(([path, item]) => [`${to}${path.slice(from.length)}`, item]))
  return { ...document, info: openApiInfo(options.server), paths }
}
