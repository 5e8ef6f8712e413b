import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { wranglerConfigFiles } from './wrangler-config.mjs'

/** Where `toolroute dev` stamps each finished build (wrangler.toml's watch_dir names its folder). */
export const devStamp = (root) => join(root, '.toolroute', 'dev', 'built')

/** The newest modification of what a build reads: tools/ (files and folders), the config files. */
function newestInput(root) {
  const tools = join(root, 'tools')
  const paths = [
    ...(existsSync(tools) ? [tools, ...readdirSync(tools, { recursive: true, encoding: 'utf8' }).map((file) => join(tools, file))] : []),
    ...[...wranglerConfigFiles, ...readdirSync(root).filter((name) => /^toolroute\.config\.[mc]?[tj]s$/.test(name))].map((name) => join(root, name)),
  ]
  return Math.max(0, ...paths.filter((path) => existsSync(path)).map((path) => statSync(path).mtimeMs))
}

/**
 * Waits until `toolroute dev` has finished a build newer than every input, or `timeoutMs` passed.
 * wrangler runs its [build] hook when its own config changes, and then bundles at once: without
 * the wait it bundled the build from before the change (a 503 BUILD_FAILED for a binding just
 * added) and, reloading, could miss the stamp of the build that followed.
 */
export async function devBuildCurrent(root, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  const current = () => existsSync(devStamp(root)) && statSync(devStamp(root)).mtimeMs >= newestInput(root)
  while (!current() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
}
