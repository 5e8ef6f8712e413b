import { cloudflareTest } from '@cloudflare/vitest-plugin'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// In this repository 'toolroute' is its own sources (the package's exports point at dist/, which
// only `npm pack` builds): every project resolves it so.
const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))
const toolrouteSources = [
  { find: /^toolroute$/, replacement: source('index.ts') },
  { find: /^toolroute\/(tools|workers|server)$/, replacement: source('$1.ts') },
  { find: /^toolroute\/(client|ai|testing)$/, replacement: source('$1/index.ts') },
  { find: /^toolroute\/deno$/, replacement: source('adapter/deno/index.ts') },
]

// One `vitest run` covers three projects:
// - node:    pure logic and type tests, in Node;
// - workers: the same core tests plus the HTTP, run and MCP tests, inside workerd (real Durable Objects);
// - e2e:     against a real `wrangler dev` that the run starts and stops.
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: toolrouteSources },
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'test/node/**/*.test.ts'],
          typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/node/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './test/workers/wrangler.toml' },
            miniflare: { cf: false },
          }),
        ],
        resolve: { alias: toolrouteSources },
        test: {
          name: 'workers',
          include: ['src/**/*.test.ts', 'test/workers/**/*.test.ts'],
          // Files share a runner's module graph instead of re-importing it each (81% of this
          // project's time was transform and import). Module state a test changes (the JSON Schema
          // validator registry) is set by the test that needs it, never assumed.
          isolate: false,
          // The secret canary over every response the suite reads from the test Worker.
          setupFiles: ['test/workers/secret-scan.setup.ts'],
          globalSetup: ['test/shared/secret-scan.global.ts', 'test/workers/webhook-receiver.global.ts'],
        },
      },
      {
        // toolroute/ai against AI SDK 6 (installed as `ai6`): the same adapter test, with `ai` aliased.
        // `ai` is a peer dependency and both majors are supported; the workers project runs it on 7.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './test/workers/wrangler.toml' },
            miniflare: { cf: false },
          }),
        ],
        resolve: {
          alias: [
            ...toolrouteSources,
            { find: /^ai$/, replacement: 'ai6' },
            { find: /^ai\/test$/, replacement: 'ai6/test' },
          ],
        },
        test: {
          name: 'workers-ai6',
          isolate: false,
          include: ['test/workers/ai-sdk-tools.test.ts', 'test/workers/ai-sdk-stream.test.ts', 'test/workers/tool-stream.test.ts'],
          setupFiles: ['test/workers/secret-scan.setup.ts'],
          globalSetup: ['test/shared/secret-scan.global.ts'],
        },
      },
      {
        resolve: { alias: toolrouteSources },
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts', 'test/shared/secret-scan.global.ts'],
          setupFiles: ['test/e2e/secret-scan.setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
