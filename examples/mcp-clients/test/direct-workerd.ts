import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Miniflare, convertV4MiniflareOptions, type V4MiniflareOptions } from 'miniflare'

/**
 * This project's Worker on workerd with a socket straight to it (Miniflare's `unsafeDirectSockets`),
 * bundled as for deploy. Not `wrangler dev`: its proxy keeps reading a response after the client
 * left, so the Worker would never learn that a client aborted its call (a 2026-07-28 cancel).
 */
export async function startDirectWorkerd(): Promise<{ url: string; stop(): Promise<void> }> {
  const project = resolve(import.meta.dirname, '..')
  const outdir = mkdtempSync(join(tmpdir(), 'mcp-clients-workerd-'))
  const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' }
  try {
    await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outdir], { cwd: project, env })
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true })
    throw error
  }
  const script = readdirSync(outdir).find((name) => name.endsWith('.js'))!
  const { unstable_getMiniflareWorkerOptions } = await import('wrangler')
  // `modulesRules` describes unbundled sources; the script here is already bundled.
  const { modulesRules: _, ...workerOptions } = unstable_getMiniflareWorkerOptions(join(project, 'wrangler.toml')).workerOptions
  // wrangler still describes a Worker in Miniflare 4's option shape; Miniflare 5 converts it.
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      ...workerOptions,
      rootPath: outdir,
      modules: true,
      scriptPath: join(outdir, script),
      cf: false,
      unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    } as V4MiniflareOptions),
  )
  await miniflare.ready
  const url = String(await miniflare.unsafeGetDirectURL()).replace(/\/$/, '')
  return {
    url,
    async stop() {
      await miniflare.dispose()
      rmSync(outdir, { recursive: true, force: true })
    },
  }
}
