import { createServer, type IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'

/** A fetch handler (a Hono app's `fetch`) served over real HTTP by Node, on a free loopback port. */
export async function serveApp(fetch: (request: Request) => Response | Promise<Response>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (incoming, outgoing) => {
    try {
      const response = await fetch(toRequest(incoming))
      outgoing.writeHead(response.status, Object.fromEntries(response.headers))
      // Written chunk by chunk, so an SSE body reaches the browser as it is produced.
      if (response.body) for await (const chunk of response.body) outgoing.write(chunk)
      outgoing.end()
    } catch (error) {
      outgoing.destroy(error as Error)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}

function toRequest(incoming: IncomingMessage): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD'
  return new Request(`http://${incoming.headers.host}${incoming.url}`, {
    method: incoming.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
}
