// The package as npm ships it, packed once per test run and shared by the files that install it
// (package.test.ts, docs.test.ts): `npm pack` (whose prepack builds dist/) into the directory the
// e2e global setup made, then the tarball unpacked beside it, for its CLI.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { inject } from 'vitest'

export const repo = resolve(import.meta.dirname, '../..')

export interface PackedPackage {
  /** The .tgz, for `npm install <tarball>`. */
  tarball: string
  /** Its own `toolroute` command, what `npx toolroute` runs once it is installed. */
  cli: string
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(command, args, { cwd, env: { ...process.env, PATH: `${join(repo, 'node_modules/.bin')}:${process.env.PATH}` }, maxBuffer: 64 << 20, timeout: 300_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    ),
  )
}

/** Packs on the first call of a run; later files (e2e files run one at a time) reuse it. */
export async function packedPackage(): Promise<PackedPackage> {
  const dir = inject('packDir')
  const done = join(dir, 'packed.json')
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8'))
  const packed = await run('npm', ['pack', '--pack-destination', dir, '--silent'], repo)
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`)
  const tarball = join(dir, packed.stdout.trim().split('\n').pop()!)
  mkdirSync(join(dir, 'unpacked'), { recursive: true })
  const unpacked = await run('tar', ['xzf', tarball, '-C', join(dir, 'unpacked')], dir)
  if (unpacked.code !== 0) throw new Error(`tar failed:\n${unpacked.stderr}`)
  const result = { tarball, cli: join(dir, 'unpacked/package/cli/toolroute.mjs') }
  writeFileSync(done, JSON.stringify(result))
  return result
}
