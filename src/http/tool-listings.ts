import { LazyTools } from '../manifest/lazy-tools.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { openApiDocumentOf, type OpenApiDocument, type OpenApiOptions } from './openapi.ts'
import { toToolDescriptor } from '../manifest/to-tool-descriptor.ts'

/** What an app's listing routes serve, each part computed or decoded once, on first use. */
export interface AppListings {
  descriptors(): Promise<ToolDescriptor[]>
  byId(): Promise<ReadonlyMap<string, ToolDescriptor>>
  openApi(): Promise<OpenApiDocument>
}

const once = <T>(compute: () => T | Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined
  return () => (value ??= Promise.resolve().then(compute))
}

/** A registry's listings: the descriptors from the manifest (no tool module evaluated) or the tools, and OpenAPI from them. */
export function toolListingsOf(tools: ReadonlyMap<string, AnyTool>, options: OpenApiOptions): AppListings {
  const descriptors = tools instanceof LazyTools ? once(() => tools.listing('descriptors')) : once(() => [...tools.values()].map(toToolDescriptor))
  return {
    descriptors,
    byId: once(async () => new Map((await descriptors()).map((descriptor) => [descriptor.id, descriptor]))),
    openApi: once(async () => openApiDocumentOf(await descriptors(), options)),
  }
}
