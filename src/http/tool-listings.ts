import { LazyTools } from '../tool/lazy-tools.ts'
import type { OpenApiDocument, ToolListings } from '../tool/tool-manifest.ts'
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

/**
 * A registry's listings for an app mounted at `options.basePath`: the manifest's, read without
 * evaluating a tool module (its OpenAPI paths moved when the app is mounted elsewhere than the
 * build assumed), or computed from the tools. Once per app, on first use; a promise, since the
 * manifest's listings are decompressed when first read.
 */
export function toolListingsOf(tools: ReadonlyMap<string, AnyTool>, options: ToolListingsOptions): () => Promise<ToolListings> {
  let listings: Promise<ToolListings> | undefined
  return () =>
    (listings ??= tools instanceof LazyTools ? Promise.resolve(tools.listings()).then((built) => rebased(built, options)) : Promise.resolve(createToolListings([...tools.values()], options)))
}

const trimmed = (basePath: string) => basePath.replace(/\/$/, '')

function rebased(listings: ToolListings, options: ToolListingsOptions): ToolListings {
  const [from, to] = [trimmed(listings.basePath), trimmed(options.basePath)]
  const sameServer = JSON.stringify(listings.server ?? null) === JSON.stringify(options.server ?? null)
  if (from === to && sameServer) return listings
  const paths = Object.fromEntries(Object.entries(listings.openApi.paths).map(([path, item]) => [`${to}${path.slice(from.length)}`, item]))
  return { ...listings, basePath: options.basePath, server: options.server, openApi: { ...listings.openApi, info: openApiInfo(options.server), paths } }
}
