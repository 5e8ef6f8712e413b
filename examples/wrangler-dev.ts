import { spawn } from 'node:child_process'
import { createServer } from 'node:net'

/** Ports this process was handed: a port closed for its caller to bind may come back from the next pick. */
const handedOut = new Set<number>()

/** A free port on loopback, never one this process was handed before (a server's port and its inspector's stay two). */
export async function freePort(): Promise<number> {
  while (true) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer()
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number }
        server.close(() => resolve(port))
      })
    })
    if (handedOut.has(port)) continue
    handedOut.add(port)
    return port
  }
}

/**
 * `wrangler dev` of the example in `cwd` (local workerd, no account, no network) in its own process
 * group, so stopping it stops wrangler and workerd; resolves once the Worker answers. The examples'
 * tests share it: chat-agent's Worker is also the toolroute server the MCP examples reach.
 */
export async function startWranglerDev(persistTo: string, cwd = '.'): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort()
  const args = ['wrangler', 'dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(await freePort()), '--persist-to', persistTo]
  const child = spawn('npx', args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    process.kill(-child.pid!, 'SIGTERM')
    await exited
  }
  for (let attempt = 0; attempt < 360; attempt++) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`)
    if (await fetch(`${url}/tools`).then((response) => response.ok, () => false)) return { url, stop }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await stop()
  throw new Error(`wrangler dev did not answer on ${url}:\n${output}`)
}
