// Bundles a Worker as `wrangler deploy` would (`wrangler deploy --dry-run`), into bench/.build/<name>/,
// for a benchmark to serve with Miniflare. Shared by the benchmarks that run on workerd.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')

/**
 * Wrangler without network or telemetry (no account on this machine; see ../shared/TOOLCHAIN.md).
 * `WRANGLER_COMMAND` as wrangler's deploy sets it for its [build] hook: every bench serves a Worker
 * as deployed, so a `toolroute build` run here writes an entry that is not served locally (one that
 * would answer only loopback Hosts, and refuse the benches' `http://bench/`).
 */
export const wranglerEnv = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(root, '.wrangler/logs'), NO_COLOR: '1', WRANGLER_COMMAND: 'deploy' }

/**
 * Writes .toolroute/ from tools/ (what wrangler's `[build]` runs for the example Worker); with
 * `deploy`, as `toolroute deploy` builds it (bundle it with `built`, or the hook builds it again).
 */
export function buildTools({ deploy = false } = {}) {
  execFileSync('node', ['cli/toolroute.mjs', 'build', ...(deploy ? ['--deploy'] : [])], { cwd: root, env: wranglerEnv, stdio: 'pipe' })
}

/**
 * @param {string} name folder under bench/.build/
 * @param {string} config path of the wrangler.toml
 * @param {{ minify?: boolean, built?: boolean }} [options] `built`: the [build] hook skips (TOOLROUTE_BUILT=1, as under toolroute deploy)
 * @returns {{ outdir: string, scriptPath: string }}
 */
export function wranglerBundle(name, config, { minify = true, built = false } = {}) {
  const outdir = join(here, '.build', name)
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(outdir, { recursive: true })
  const flags = ['wrangler', 'deploy', '--dry-run', '--outdir', outdir, '--metafile', '--config', config, minify ? '--minify' : '--no-minify']
  execFileSync('npx', flags, { cwd: root, env: built ? { ...wranglerEnv, TOOLROUTE_BUILT: '1' } : wranglerEnv, stdio: 'pipe' })
  return { outdir, scriptPath: join(outdir, readdirSync(outdir).find((file) => file.endsWith('.js'))) }
}
