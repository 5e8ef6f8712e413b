import { LazyTools } from '../tool/lazy-tools.ts'
import type { ToolListings } from '../tool/tool-manifest.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { toMcpTool } from '../mcp/to-mcp-tool.ts'
import { openApiDocumentOf, type OpenApiDocument, type OpenApiOptions } from './openapi.ts'
import { toToolDescriptor } from './tool-descriptor.ts'

/**
 * What the listing routes serve, computed from the tools themselves: `toolroute build` writes it
 * into the manifest (reading each schema's JSON Schema, which a Standard Schema computes when
 * first read).
 */
export function createToolListings(tools: readonly AnyTool[]): ToolListings {
  return { descriptors: tools.map(toToolDescriptor), mcpTools: tools.map(toMcpTool) }
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

/**
 * A registry's listings for an app mounted at `options.basePath`: the descriptors from the
 * manifest, read without evaluating a tool module, or from the tools; the OpenAPI document from
 * the descriptors, for the base path and server the app is served with.
 */
export function toolListingsOf(tools: ReadonlyMap<string, AnyTool>, options: OpenApiOptions): AppListings {
  const descriptors = tools instanceof LazyTools ? once(() => tools.listing('descriptors')) : once(() => [...tools.values()].map(toToolDescriptor))
  return { descriptors, openApi: once(async () => openApiDocumentOf(await descriptors(), options)) }
}
