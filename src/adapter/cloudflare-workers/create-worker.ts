import type { Hono } from 'hono'
import { createToolApp, type ToolAppEnv } from '../../http/create-tool-app.ts'
import type { ToolAppOptions } from '../../http/tool-app-options.ts'
import { toolRegistry } from '../../http/tool-registry.ts'
import type { RunHost } from '../../runs/run-host.ts'
import { createToolRunObject, type ToolRunObjectOptions } from './create-tool-run-object.ts'
import { createDurableObjectRunHost } from './durable-object-run-host.ts'

/** The Durable Object binding that holds runs (wrangler.toml `[[durable_objects.bindings]]`). */
export const runsBinding = 'TOOLROUTE_RUNS'

/** What a deployment configures in `toolroute.config.ts` (everything but the tools, found in `tools/`). */
export type ToolrouteConfig = Omit<ToolAppOptions, 'tools' | 'runs'> &
  ToolRunObjectOptions & {
    /** A custom run host per request (e.g. Workers KV); default: the `TOOLROUTE_RUNS` Durable Objects. */
    runs?: ToolAppOptions['runs']
  }

/** Identity helper that types `toolroute.config.ts`. */
export function defineConfig(config: ToolrouteConfig): ToolrouteConfig {
  return config
}

/**
 * A Worker serving `tools`: its `fetch`, and the Durable Object class its runs live in
 * (export it under the class name bound in wrangler.toml).
 *
 * @example
 * const worker = createWorker({ tools: [weatherTool] })
 * export default worker
 * export class ToolRunObject extends worker.ToolRunObject {}
 */
export function createWorker(config: ToolrouteConfig & { tools: ToolAppOptions['tools'] }): {
  app: Hono<ToolAppEnv>
  fetch: Hono<ToolAppEnv>['fetch']
  ToolRunObject: ReturnType<typeof createToolRunObject>
} {
  const tools = toolRegistry(config.tools)
  const hosts = new WeakMap<DurableObjectNamespace, RunHost>()
  const app = createToolApp({
    ...config,
    runs:
      config.runs ??
      ((c) => {
        const namespace = (c.env as Record<string, DurableObjectNamespace | undefined>)?.[runsBinding]
        if (!namespace) throw new Error(`Durable Object binding ${runsBinding} is missing from wrangler.toml`)
        let host = hosts.get(namespace)
        if (!host) hosts.set(namespace, (host = createDurableObjectRunHost(namespace)))
        return host
      }),
  })
  return { app, fetch: app.fetch, ToolRunObject: createToolRunObject(tools, config) }
}
