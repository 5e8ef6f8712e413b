import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { buildTools } from './build-tools.mjs'
import { wranglerBin } from './wrangler-bin.mjs'

/**
 * `toolroute deploy [--dry-run]`: builds for deployment (exit 1 on a build error, nothing uploaded;
 * the playground page only with `playground: true`), then `wrangler deploy`, whose [build] hook
 * finds the build already done.
 */
export async function deploy({ root, dryRun, outdir, wranglerArgs = [] }) {
  root = resolve(root)
  const { problems } = await buildTools(root, { deploy: true })
  if (problems.length > 0) return 1
  const args = ['deploy', ...(dryRun ? ['--dry-run'] : []), ...(outdir ? ['--outdir', outdir] : []), ...wranglerArgs]
  const child = spawn(process.execPath, [wranglerBin(root), ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, TOOLROUTE_BUILT: '1' } })
  return new Promise((done) => child.once('exit', (code) => done(code ?? 1)))
}
