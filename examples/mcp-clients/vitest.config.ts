import { defineConfig } from 'vitest/config'

// The clients run in Node, as in an app or an agent's host; the server is this project's Worker on
// local workerd (Durable Objects for runs and sessions), over real HTTP.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/tools-server.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
