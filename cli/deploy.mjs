import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { buildTools } from './build-tools.mjs'
import { readWranglerConfig } from './wrangler-config.mjs'
import { wranglerBin } from './wrangler-bin.mjs'

/** The entry `toolroute build` writes, which wrangler.toml's `main` names (`toolroute init` writes it so). */
const devEntry = resolve('/', '.toolroute/worker.ts')

/** The wrangler config's top-level `main`, relative to the project, if it has one. */
function wranglerMain(root) {
  const main = readWranglerConfig(root)?.config.main
  return typeof main === 'string' && main !== '' ? main : undefined
}

/**
 * `toolroute deploy [--dry-run]`: builds for deployment (exit 1 on a build error, nothing uploaded;
 * the playground page only with `playground: true`), then `wrangler deploy`, whose [build] hook
 * finds the build already done.
 *
 * When `main` is the generated `.toolroute/worker.ts`, the deploy build's entry is written beside
 * it, as `.toolroute/deploy/worker.ts` (so the bundle is still `worker.js`), and handed to `wrangler
 * deploy` as its script: a `toolroute dev` running meanwhile keeps serving `worker.ts` with its
 * page, instead of reloading a build without it. A hand-written `main` imports what it imports, so
 * `worker.ts` is then the deploy build, as before.
 */
export async function deploy({ root, dryRun, outdir, wranglerArgs = [] }) {
  root = resolve(root)
  // Another config (`-- --config other.toml`) names its own main: left to it.
  const ownConfig = wranglerArgs.some((arg) => arg === '--config' || arg === '-c' || arg.startsWith('--config='))
  const main = ownConfig ? undefined : wranglerMain(root)
  const separate = main !== undefined && resolve('/', main) === devEntry
  const { problems } = await buildTools(root, { deploy: true, ...(separate ? { entry: 'deploy/worker.ts' } : {}) })
  if (problems.length > 0) return 1
  const args = ['deploy', ...(separate ? ['.toolroute/deploy/worker.ts'] : []), ...(dryRun ? ['--dry-run'] : []), ...(outdir ? ['--outdir', outdir] : []), ...wranglerArgs]
  const child = spawn(process.execPath, [wranglerBin(root), ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, TOOLROUTE_BUILT: '1' } })
  return new Promise((done) => child.once('exit', (code) => done(code ?? 1)))
}
