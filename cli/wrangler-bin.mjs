import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** The project's own wrangler (a dependency `toolroute init` writes), run on this Node. */
export function wranglerBin(root) {
  const require = createRequire(join(root, 'package.json'))
  let manifest
  try {
    manifest = require.resolve('wrangler/package.json')
  } catch {
    console.error('toolroute: wrangler is not installed in this project: npm install --save-dev wrangler')
    process.exit(1)
  }
  const bin = join(manifest, '..', 'bin', 'wrangler.js')
  if (!existsSync(bin)) {
    console.error(`toolroute: ${bin} is missing: reinstall wrangler`)
    process.exit(1)
  }
  return bin
}
