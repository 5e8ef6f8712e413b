import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'

/** Bundles an entry for the browser, as an app's bundler would, and reports what went in. */
async function bundle(entry: string) {
  const result = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', minify: true, write: false, metafile: true, logLevel: 'silent' })
  return { inputs: Object.keys(result.metafile.inputs), gzipBytes: gzipSync(result.outputFiles[0]!.contents).byteLength }
}

describe('toolroute/client in a browser bundle', () => {
  it('carries none of the server: only the client, the wire contract (src/protocol/) and eventsource-parser', async () => {
    const { inputs, gzipBytes } = await bundle('src/client/index.ts')
    const allowed = ['src/client/', 'src/protocol/', 'node_modules/eventsource-parser/']
    const outside = inputs.filter((input) => !allowed.some((prefix) => input.startsWith(prefix)))
    expect(outside).toEqual([])
    // The client reads the server's error table and header names from the protocol, not a copy.
    expect(inputs).toContain('src/protocol/error-codes.ts')
    expect(inputs).toContain('src/protocol/header-names.ts')
    // About 5 KB today (the client and protocol/); the bound catches a server module (zod alone is ~60 KB) slipping in.
    expect(gzipBytes).toBeLessThan(8 * 1024)
  })
})
