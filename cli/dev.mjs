import { spawn } from 'node:child_process'
import { existsSync, watch } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildTools } from './build-tools.mjs'
import { sourceAliases } from './source-aliases.mjs'
import { wranglerBin } from './wrangler-bin.mjs'

/**
 * `toolroute dev`: builds, starts `wrangler dev`, and rebuilds once per save. toolroute watches
 * tools/ and the config itself and tells wrangler's [build] hook to do nothing
 * (TOOLROUTE_BUILT=1): wrangler's hook and its own bundler watching the same files were two
 * rebuilds per save, and a failed hook made wrangler hold every request until the next good
 * build. A failed build here writes the 503 BUILD_FAILED entry instead, which wrangler serves.
 */
export async function dev({ root, port, wranglerArgs = [] }) {
  root = resolve(root)
  await buildTools(root, { fallback: true })

  let building = false
  let again = false
  let timer
  const rebuild = async () => {
    if (building) {
      again = true
      return
    }
    building = true
    try {
      await buildTools(root, { fallback: true })
    } catch (error) {
      console.error(`toolroute: build crashed: ${error?.stack ?? error}`)
    } finally {
      building = false
      if (again) {
        again = false
        schedule()
      }
    }
  }
  // Editors save in bursts (write, rename, chmod): one build per burst.
  const schedule = () => {
    clearTimeout(timer)
    timer = setTimeout(rebuild, 60)
  }
  const watchers = []
  const watchDir = (dir, filter) => {
    if (existsSync(dir)) watchers.push(watch(dir, { recursive: true }, (_event, name) => (!filter || filter(String(name))) && schedule()))
  }
  watchDir(join(root, 'tools'), (name) => !/\.(test|spec)\.[mc]?[tj]s$/.test(name))
  watchDir(root, (name) => /^toolroute\.config\.[mc]?[tj]s$/.test(name))
  // In toolroute's own repository the framework's sources are part of what the build loads.
  if (Object.keys(sourceAliases()).length > 0) watchDir(resolve(import.meta.dirname, '..', 'src'), (name) => !/\.test(-d)?\.ts$/.test(name))

  const args = ['dev', ...(port ? ['--port', String(port)] : []), ...wranglerArgs]
  const child = spawn(process.execPath, [wranglerBin(root), ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TOOLROUTE_BUILT: '1' },
  })
  const stop = (signal) => {
    for (const watcher of watchers) watcher.close()
    clearTimeout(timer)
    if (child.exitCode === null) child.kill(signal)
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
  return new Promise((resolveExit) =>
    child.once('exit', (code, signal) => {
      stop('SIGTERM')
      resolveExit(code ?? (signal ? 0 : 1))
    }),
  )
}
