#!/usr/bin/env node
// Builds the published package into dist/: ESM JavaScript and .d.ts for every entry (tsc, with the
// sources' .ts specifiers rewritten to .js), run by `prepack` so `npm pack` always holds compiled
// output. The repository itself keeps running on the sources (tests, `npm run dev`, Deno).
//
// Two steps beyond tsc (the MCP SDK v2 is an ordinary dependency: its `workerd` export condition
// picks a validator that generates no code, so nothing of it is vendored or stubbed):
// - toolroute/deno is compiled in a second program against Deno's own types (`deno types`).
// - The playground's browser code is reprinted without the sources' comments (see the end).
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { transform } from 'esbuild'

const root = resolve(import.meta.dirname, '..')
const dist = join(root, 'dist')
const work = join(root, '.toolroute', 'package')
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: 'inherit' })
const tsc = join(root, 'node_modules/typescript/bin/tsc')

rmSync(dist, { recursive: true, force: true })
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })

// --noCheck: emit only; `tsc --noEmit -p .` (npm run check, CI) is where the sources are type-checked.
run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'])

// toolroute/deno: the same compiler options, Deno's globals instead of the Workers types.
const denoTypes = execFileSync(join(root, 'node_modules/.bin/deno'), ['types', '--unstable-kv'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
  .split('\n')
  .filter((line) => !line.startsWith('/// <reference')) // deno's own lib names mean nothing to tsc
  .join('\n')
writeFileSync(join(work, 'deno.d.ts'), `${denoTypes}\n// Timers live in lib.deno.window, which \`deno types\` leaves out.\ndeclare function setTimeout(handler: (...args: any[]) => void, ms?: number, ...args: any[]): number\ndeclare function clearTimeout(id?: number): void\ndeclare function setInterval(handler: (...args: any[]) => void, ms?: number, ...args: any[]): number\ndeclare function clearInterval(id?: number): void\n`)
writeFileSync(
  join(work, 'tsconfig.deno.json'),
  JSON.stringify({
    extends: '../../tsconfig.build.json',
    compilerOptions: { lib: ['ESNext'], types: [], outDir: '../../dist', rootDir: '../../src' },
    include: [],
    files: ['../../src/adapter/deno/index.ts', 'deno.d.ts'],
  }),
)
run(process.execPath, [tsc, '-p', join(work, 'tsconfig.deno.json'), '--noCheck'])

// Point the declarations at .js files (the sources import with .ts specifiers, which tsc keeps in .d.ts).
const files = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]))
for (const file of files(dist)) {
  if (!file.endsWith('.d.ts')) continue
  const text = readFileSync(file, 'utf8')
  const next = text.replace(/((?:from|import)\s*\(?\s*['"])(\.\.?\/[^'"]+)\.ts(['"])/g, '$1$2.js$3')
  if (next !== text) writeFileSync(file, next)
}
// The playground's browser code ships as the text of its functions (`toString()`): tsc keeps the
// sources' comments, which every page would carry (a third of its gzip). esbuild reprints them
// without, names and layout unchanged (a Worker's bundle does the same through wrangler).
for (const name of ['playground-script.js', 'playground-forms.js', 'playground-views.js', 'playground-runs.js', 'playground-session.js', 'playground-token-prompt.js']) {
  const file = join(dist, 'playground', name)
  writeFileSync(file, (await transform(readFileSync(file, 'utf8'), { format: 'esm', loader: 'js' })).code)
}
rmSync(work, { recursive: true, force: true })
console.log(`toolroute: package built into ${relative(root, dist)}/`)
