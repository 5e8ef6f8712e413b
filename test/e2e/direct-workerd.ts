import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Miniflare, convertV4MiniflareOptions, type V4MiniflareOptions } from 'miniflare'

export interface DirectWorkerd {
  url: string
  stop(): Promise<void>
}

export interface DirectWorkerdOptions {
  /** Serve the V8 inspector on this port (test/e2e/workerd-inspector.ts reads the isolate's heap). */
  inspectorPort?: number
  /** V8 flags for workerd (`--expose-gc`, so a test can collect before it reads the heap). */
  v8Flags?: string[]
}

/**
 * A Worker on workerd with a socket straight to it (Miniflare's `unsafeDirectSockets`): no
 * `wrangler dev` proxy in between, so what the runtime does with a connection (a client that
 * goes away) is what the test sees. The Worker is bundled as for deploy, from `config`.
 */
export async function startDirectWorkerd(config: string, options: DirectWorkerdOptions = {}): Promise<DirectWorkerd> {
  const repo = resolve(import.meta.dirname, '../..')
  mkdirSync(join(repo, '.toolroute-test-tmp'), { recursive: true })
  const outdir = mkdtempSync(join(repo, '.toolroute-test-tmp', 'workerd-'))
  const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(repo, '.wrangler/logs'), NO_COLOR: '1' }
  try {
    await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outdir, '--config', config], { cwd: repo, env })
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true })
    throw error
  }
  const script = readdirSync(outdir).find((name) => name.endsWith('.js'))!
  const { unstable_getMiniflareWorkerOptions } = await import('wrangler')
  // `modulesRules` describes unbundled sources; the script here is already bundled (and Miniflare 5
  // refuses to convert the option).
  const { modulesRules: _, ...workerOptions } = unstable_getMiniflareWorkerOptions(resolve(repo, config)).workerOptions
  // wrangler still describes a Worker in Miniflare 4's option shape; Miniflare 5 converts it.
  // Miniflare hands workerd V8 flags only through this variable, read when it writes the config.
  const flagsBefore = process.env.MINIFLARE_WORKERD_V8_FLAGS
  if (options.v8Flags) process.env.MINIFLARE_WORKERD_V8_FLAGS = options.v8Flags.join(' ')
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      ...workerOptions,
      // Modules resolve from the bundle's folder: workerd refuses a path that climbs out of its root
      // with `..` (the config's folder is the default root, and the bundle is elsewhere).
      rootPath: outdir,
      modules: true,
      scriptPath: join(outdir, script),
      cf: false,
      unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
    } as V4MiniflareOptions),
  )
  try {
    await miniflare.ready
  } finally {
    if (flagsBefore === undefined) delete process.env.MINIFLARE_WORKERD_V8_FLAGS
    else process.env.MINIFLARE_WORKERD_V8_FLAGS = flagsBefore
  }
  const url = String(await miniflare.unsafeGetDirectURL()).replace(/\/$/, '')
  return {
    url,
    async stop() {
      await miniflare.dispose()
      rmSync(outdir, { recursive: true, force: true })
    },
  }
}
