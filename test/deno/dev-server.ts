// Starts `deno task dev` as a user would (a child process on a free port, runs in a Deno KV
// file), for the end-to-end smoke test.
import { repoRoot } from './harness.ts'

export interface DevServer {
  url: string
  /** SIGTERM, then the exit code once the process is gone. */
  stop(): Promise<number>
  /** What it printed so far (stdout and stderr), for failure messages. */
  output(): string
}

function freePort(): number {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 })
  const { port } = listener.addr
  listener.close()
  return port
}

export async function startDevServer(kvPath: string, timeoutMs = 60_000): Promise<DevServer> {
  const port = freePort()
  const child = new Deno.Command(Deno.execPath(), {
    args: ['task', 'dev', '--port', String(port), '--kv', kvPath],
    cwd: repoRoot,
    env: { NO_COLOR: '1' },
    stdin: 'null',
    stdout: 'piped',
    stderr: 'piped',
  }).spawn()
  let printed = ''
  const decoder = new TextDecoder()
  const collect = (stream: ReadableStream<Uint8Array>) => stream.pipeTo(new WritableStream({ write: (chunk) => void (printed += decoder.decode(chunk, { stream: true })) }))
  const drained = Promise.all([collect(child.stdout), collect(child.stderr)])
  const url = `http://127.0.0.1:${port}`
  let exited = false
  const status = child.status.then((value) => ((exited = true), value))

  const server: DevServer = {
    url,
    async stop() {
      if (!exited) child.kill('SIGTERM')
      const { code } = await status
      await drained
      return code
    },
    output: () => printed,
  }
  const deadline = Date.now() + timeoutMs
  while (true) {
    if (exited) throw new Error(`deno task dev exited before it answered:\n${printed}`)
    try {
      const response = await fetch(`${url}/tools`)
      await response.body?.cancel()
      if (response.ok) return server
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop()
      throw new Error(`deno task dev did not answer within ${timeoutMs} ms:\n${printed}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
