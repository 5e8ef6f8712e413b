import type { TestProject } from 'vitest/node'
import { startWranglerDev, type WranglerDev } from './wrangler-dev.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
  }
}

let server: WranglerDev | undefined

/** One `wrangler dev` for the e2e project: the README's own `npm run dev`, started and stopped here. */
export async function setup(project: TestProject) {
  server = await startWranglerDev()
  project.provide('baseUrl', server.url)
}

export async function teardown() {
  await server?.stop()
}
