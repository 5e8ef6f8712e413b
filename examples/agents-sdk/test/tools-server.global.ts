// The chat-agent example's Worker under `wrangler dev` for the run: the toolroute server (its /mcp)
// the agent reaches, with the same tools the chat uses.
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
  const state = mkdtempSync(join(tmpdir(), 'agents-sdk-tools-'))
  const server = await startWranglerDev(state, '../chat-agent')
  project.provide('toolrouteUrl', server.url)
  return async () => {
    await server.stop()
    rmSync(state, { recursive: true, force: true })
  }
}
