import { isLoopbackHost } from '../../caller/is-loopback-host.ts'
import { createDenoToolApp, type DenoToolApp, type DenoToolAppOptions } from './create-deno-tool-app.ts'

/** Options of `serveTools`: the app's, where to listen, and which Deno KV database holds runs. */
export interface ServeToolsOptions extends Omit<DenoToolAppOptions, 'kv'> {
  /** An open database; default: `Deno.openKv(kvPath)`, closed again by `shutdown`. */
  kv?: Deno.Kv
  /** Where `Deno.openKv` keeps the database when `kv` is not given (`:memory:` for none). */
  kvPath?: string
  /** Default 8000; 0 picks a free port. */
  port?: number
  /** Default `127.0.0.1`; on a loopback address the app answers only loopback `Host`s and `allowedHosts` (SPEC §5). */
  hostname?: string
  /** Called once the server listens; by default it prints `toolroute: listening on <url>`. */
  onListen?: (address: { url: URL; hostname: string; port: number }) => void
}

export interface ToolServer extends DenoToolApp {
  kv: Deno.Kv
  server: Deno.HttpServer<Deno.NetAddr>
  /** The address it listens on, e.g. `http://127.0.0.1:8000/`. */
  url: URL
  /** Stops accepting requests, waits for those in flight, and closes a database it opened. */
  shutdown(): Promise<void>
}

/**
 * Serves tools with `Deno.serve`, runs in Deno KV.
 *
 * @example
 * import { serveTools } from 'toolroute/deno'
 * import { weatherTool } from './tools/weather-tool.ts'
 * await serveTools({ tools: [weatherTool], port: 8000 })
 */
export async function serveTools(options: ServeToolsOptions): Promise<ToolServer> {
  const { kv: givenKv, kvPath, port = 8000, hostname = '127.0.0.1', onListen, ...appOptions } = options
  const kv = givenKv ?? (await Deno.openKv(kvPath))
  try {
    // Known from the bind address, which no request can change (SPEC §5, DNS rebinding); the options may override it.
    const loopback = isLoopbackHost(hostname.includes(':') ? `[${hostname}]` : hostname.toLowerCase())
    const built = await createDenoToolApp({ servedLocally: loopback, ...appOptions, kv })
    const server = Deno.serve({ port, hostname, onListen() {} }, built.app.fetch)
    const url = new URL(`http://${server.addr.hostname.includes(':') ? `[${server.addr.hostname}]` : server.addr.hostname}:${server.addr.port}/`)
    if (onListen) onListen({ url, hostname: server.addr.hostname, port: server.addr.port })
    else console.log(`toolroute: listening on ${url.href} (GET ${url.href}tools lists the tools)`)
    return {
      ...built,
      kv,
      server,
      url,
      async shutdown() {
        await server.shutdown()
        if (!givenKv) kv.close()
      },
    }
  } catch (error) {
    if (!givenKv) kv.close()
    throw error
  }
}
