// This project's Worker (the repository's example tools) under `wrangler dev` for the run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startWranglerDev } from '../../wrangler-dev.ts'

declare module 'vitest' {
  interface ProvidedContext {
    toolrouteUrl: string
  }
}

export default async function setup(project: TestProject) {
  const state = mkdtempSync(join(tmpdir(), 'mcp-clients-tools-'))
  const server = await startWranglerDev(state)
  project.provide('toolrouteUrl', server.url)
  return async () => {
    await server.stop()
    rmSync(state, { recursive: true, force: true })
  }
}
