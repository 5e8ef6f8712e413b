/**
 * The repository's `deno task dev [--port 8000] [--hostname 127.0.0.1] [--tools tools] [--kv .toolroute/deno-kv.sqlite3]`:
 * serves every tool in `tools/` with runs in a Deno KV file, as `npm run dev` does on wrangler, with no
 * build step. `PORT` and `TOOLROUTE_KV` set the port and the database too; `--kv :memory:` keeps nothing.
 */
import { parseArgs } from 'node:util'
import { loadTools } from '../src/adapter/deno/load-tools.ts'
import { serveTools } from '../src/adapter/deno/serve-tools.ts'

const option = { type: 'string' } as const
const { values } = parseArgs({ args: Deno.args, strict: false, options: { port: option, hostname: option, tools: option, kv: option } })
const flag = (name: 'port' | 'hostname' | 'tools' | 'kv') => (typeof values[name] === 'string' ? values[name] : undefined)

const port = Number(flag('port') ?? Deno.env.get('PORT') ?? 8000)
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`toolroute: --port must be a port number, got ${flag('port') ?? Deno.env.get('PORT')}`)
const toolsDir = flag('tools') ?? 'tools'
const kvPath = flag('kv') ?? Deno.env.get('TOOLROUTE_KV') ?? '.toolroute/deno-kv.sqlite3'
if (kvPath !== ':memory:') await Deno.mkdir(new URL('.', new URL(kvPath, new URL(`${Deno.cwd()}/`, 'file:///'))), { recursive: true })

const { tools, files } = await loadTools(toolsDir)
const server = await serveTools({
  tools,
  port,
  hostname: flag('hostname') ?? '127.0.0.1',
  kvPath,
  onListen({ url }) {
    console.log(`toolroute: ${tools.length} tool${tools.length === 1 ? '' : 's'} from ${toolsDir}/ on ${url.href} (runs in Deno KV: ${kvPath})`)
    for (const [id, where] of files) console.log(`  POST /tools/${id}  ← ${where}`)
    console.log(`  GET  /  the playground (on localhost)`)
    console.log('  GET  /tools  GET /tools/:toolId  GET /openapi.json  /mcp  /runs/:runId[/events|/approve|/decline|/resume|/cancel]')
  },
})

// On SIGINT/SIGTERM in-flight requests get a moment (an open event stream would hold a graceful shutdown forever).
let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  const grace = new Promise((resolve) => setTimeout(resolve, 2000))
  Promise.race([server.shutdown(), grace]).finally(() => Deno.exit(0))
}
Deno.addSignalListener('SIGINT', stop)
Deno.addSignalListener('SIGTERM', stop)
