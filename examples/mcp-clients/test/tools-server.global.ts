// This project's Worker (the repository's example tools) on local workerd for the run.
import type { TestProject } from 'vitest/node'
import { startDirectWorkerd } from './direct-workerd.ts'

declare module 'vitest' {
  interface ProvidedContext {
    toolrouteUrl: string
  }
}

export default async function setup(project: TestProject) {
  const server = await startDirectWorkerd()
  project.provide('toolrouteUrl', server.url)
  return () => server.stop()
}
