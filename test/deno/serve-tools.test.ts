// serveTools says where it listens, as `deno task dev` does: a script of one's own that calls it
// prints the URL once it listens (unless it passes its own onListen).
import assert from 'node:assert/strict'
import { serveTools } from 'toolroute/deno'
import { exampleTools } from './harness.ts'

Deno.test('serveTools prints the URL it listens on, and stays quiet with an onListen of its own', async () => {
  const printed: string[] = []
  const log = console.log
  console.log = (...args: unknown[]) => void printed.push(args.join(' '))
  try {
    const server = await serveTools({ tools: exampleTools, port: 0, kvPath: ':memory:', queue: false })
    await server.shutdown()
    assert.deepEqual(printed, [`toolroute: listening on ${server.url.href} (GET ${server.url.href}tools lists the tools)`])
    assert.match(server.url.href, /^http:\/\/127\.0\.0\.1:\d+\/$/)
    printed.length = 0
    let heard: URL | undefined
    const quiet = await serveTools({ tools: exampleTools, port: 0, kvPath: ':memory:', queue: false, onListen: ({ url }) => (heard = url) })
    await quiet.shutdown()
    assert.deepEqual(printed, [])
    assert.equal(heard?.href, quiet.url.href)
  } finally {
    console.log = log
  }
})
