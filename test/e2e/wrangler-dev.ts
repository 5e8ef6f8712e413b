import { spawn, type ChildProcess } from 'node:child_process'
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

export interface WranglerDev {
  url: string
  stop(): Promise<void>
  /** Kills wrangler and its workerd processes at once (SIGKILL to the process group): a crash, not a shutdown. */
  kill(): Promise<void>
}

/**
 * Starts `wrangler dev` (local workerd, no account, no network) in its own process group, so
 * stopping it stops wrangler and both workerd processes, and waits until it answers.
 */
export async function startWranglerDev(options: { persistTo?: string; port?: number; config?: string } = {}): Promise<WranglerDev> {
  const port = options.port ?? (await freePort())
  const args = ['wrangler', 'dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(await freePort())]
  if (options.persistTo) args.push('--persist-to', options.persistTo)
  if (options.config) args.push('--config', options.config)
  const child: ChildProcess = spawn('npx', args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_LOG_PATH: '.wrangler/logs',
      NO_COLOR: '1',
    },
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`)
    try {
      const response = await fetch(`${url}/tools`)
      if (response.ok) break
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  if (Date.now() >= deadline) {
    process.kill(-child.pid!, 'SIGKILL')
    throw new Error(`wrangler dev did not answer on ${url}:\n${output}`)
  }
  return {
    url,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        return
      }
      await exited
    },
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      try {
        process.kill(-child.pid!, 'SIGTERM')
      } catch {
        return
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL')
        } catch {}
      }, 5000)
      await exited
      clearTimeout(timer)
    },
  }
}
