import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, utimesSync, watch, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildTools } from './build-tools.mjs'
import { sourceAliases } from './source-aliases.mjs'
import { devStamp } from './dev-build-current.mjs'
import { wranglerConfigFiles } from './wrangler-config.mjs'
import { wranglerBin } from './wrangler-bin.mjs'

/** A file at the project root whose change rebuilds: toolroute.config.ts or the wrangler config. */
const isConfigFile = (name) => /^toolroute\.config\.[mc]?[tj]s$/.test(name) || wranglerConfigFiles.includes(name)

/**
 * wrangler reads .dev.vars with its config, and rereads both only when the config file changes (a
 * rebuild reloads the Worker, not its vars): touching the config makes a saved secret reach the tools.
 */
function touchWranglerConfig(root) {
  const file = wranglerConfigFiles.map((name) => join(root, name)).find((path) => existsSync(path))
  if (file) utimesSync(file, new Date(), new Date())
}

/**
 * `toolroute dev`: builds, starts `wrangler dev`, and rebuilds once per save. toolroute watches
 * tools/, toolroute.config.ts and the wrangler config itself, tells wrangler's [build] hook to do
 * nothing (TOOLROUTE_BUILT=dev: it only waits for a build newer than its inputs) and, after each build, touches .toolroute/dev/built, the one thing
 * wrangler.toml's watch_dir names. Wrangler watching tools/ itself ran its hook once per file event (an editor's save is
 * several) and, when the hook failed, held every request until the next good build. A failed
 * build here writes the 503 BUILD_FAILED entry instead, which wrangler then serves.
 */
export async function dev({ root, port, wranglerArgs = [] }) {
  root = resolve(root)
  // wrangler reloads when this changes (wrangler.toml's watch_dir): after each build, good or
  // failed, and only then. With a [build] hook, wrangler watches nothing else.
  const stampDir = join(root, '.toolroute', 'dev')
  const built = async () => {
    await buildTools(root, { fallback: true })
    mkdirSync(stampDir, { recursive: true })
    writeFileSync(devStamp(root), `${new Date().toISOString()}\n`)
  }
  await built()

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
      await built()
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
    if (existsSync(dir)) watchers.push(watchTree(dir, (name) => (!filter || filter(name)) && schedule()))
  }
  watchDir(join(root, 'tools'), (name) => !/\.(test|spec)\.[mc]?[tj]s$/.test(name))
  // The config and the wrangler config too: a build that failed on a missing binding is served as
  // 503 BUILD_FAILED until the next build, which the fix of wrangler.toml itself must start.
  watchDir(root, (name) => isConfigFile(name))
  watchers.push(watch(root, (_, name) => name === '.dev.vars' && existsSync(join(root, name)) && touchWranglerConfig(root)))
  // In toolroute's own repository the framework's sources are part of what the build loads.
  if (Object.keys(sourceAliases()).length > 0) watchDir(resolve(import.meta.dirname, '..', 'src'), (name) => !/\.test(-d)?\.ts$/.test(name))

  const args = ['dev', ...(port ? ['--port', String(port)] : []), ...wranglerArgs]
  const child = spawn(process.execPath, [wranglerBin(root), ...args], {
    cwd: root,
    stdio: 'inherit',
    // No network needed (SPEC §7): wrangler would fetch the Request.cf object and print a stack offline.
    env: { CLOUDFLARE_CF_FETCH_ENABLED: 'false', ...process.env, TOOLROUTE_BUILT: 'dev' },
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

/**
 * Watches a directory and the directories under it, one non-recursive watcher each. (Node's
 * recursive watch on Linux watches files by inode: an editor that saves by rename, as `sed -i`
 * and many editors do, leaves it watching the old file, and the next save goes unseen.)
 */
function watchTree(root, onChange) {
  const watchers = new Map()
  const add = (dir) => {
    if (watchers.has(dir)) return
    try {
      watchers.set(dir, watch(dir, (event, name) => {
        if (event === 'rename') scan(dir)
        onChange(String(name ?? ''))
      }))
    } catch {
      return // removed meanwhile
    }
    scan(dir)
  }
  const scan = (dir) => {
    let entries = []
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      watchers.get(dir)?.close()
      watchers.delete(dir)
      return
    }
    for (const entry of entries) if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) add(join(dir, entry.name))
  }
  add(root)
  return { close: () => watchers.forEach((watcher) => watcher.close()) }
}
