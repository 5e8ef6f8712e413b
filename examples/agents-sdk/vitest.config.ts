import { cloudflareTest } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: './wrangler.toml' },
      // The agent reaches the tools Worker over real HTTP, by the URL it would have deployed.
      miniflare: { bindings: { TOOLROUTE_URL: inject('toolrouteUrl') } },
    })),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/tools-server.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
