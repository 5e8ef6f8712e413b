import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startWranglerDev, type WranglerDev } from './wrangler-dev.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    /** Where packed-package.ts packs the package, once for the run. */
    packDir: string
  }
}

let server: WranglerDev | undefined
let packDir: string | undefined

/** One `wrangler dev` for the e2e project: the README's own `npm run dev`, started and stopped here. */
export async function setup(project: TestProject) {
  packDir = mkdtempSync(join(tmpdir(), 'toolroute-pack-'))
  project.provide('packDir', packDir)
  server = await startWranglerDev()
  project.provide('baseUrl', server.url)
}

export async function teardown() {
  await server?.stop()
  if (packDir) rmSync(packDir, { recursive: true, force: true })
}
