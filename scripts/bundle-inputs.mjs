// What reaches a Worker bundle, read from an esbuild metafile (wrangler's `--metafile`, or
// esbuild's own): bytes per package or source folder, and the pieces an app may go without
// (SPEC §11). Shared by bench/bundle.bench.mjs and test/node/split-entries.test.ts.

/** The output's inputs: path → bytes in the output. */
export function outputInputs(metafile) {
  const output = Object.entries(metafile.outputs).find(([name]) => name.endsWith('.js'))
  if (!output) throw new Error('the metafile has no .js output')
  return Object.fromEntries(Object.entries(output[1].inputs).map(([path, { bytesInOutput }]) => [path.split('\\').join('/'), bytesInOutput]))
}

/** Who a bundle input belongs to: its package, toolroute's `src/<folder>`, or the app itself. */
export function ownerOf(path) {
  const match = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
  if (match) return match[1]
  const source = path.match(/(?:^|\/)src\/([^/]+\/)?/)
  return source ? `toolroute src/${source[1] ?? ''}` : 'the app'
}

/** The pieces SPEC §11 names, each a test on an input's path. */
export const pieces = {
  'MCP SDK': (path) => /node_modules\/@modelcontextprotocol\//.test(path),
  'src/mcp': (path) => /(?:^|\/)src\/mcp\//.test(path),
  'classic Zod': (path) => /node_modules\/zod\/(?:v4\/classic|v3|index\.)/.test(path),
  'zod/mini': (path) => /node_modules\/zod\/(?:v4\/)?mini\//.test(path),
  // The page GET / serves (SPEC §10), bundled only where the Worker can serve it.
  playground: (path) => /(?:^|\/)src\/playground\/playground-/.test(path),
  // What checks plain JSON Schemas: @cfworker/json-schema and toolroute's adapter over it.
  'JSON Schema validator': (path) => /node_modules\/@cfworker\/json-schema\/|(?:^|\/)src\/schema\/cfworker-json-schema\./.test(path),
  // Webhooks (SPEC §16), bundled only when the config has them.
  webhooks: (path) => /(?:^|\/)src\/webhooks\//.test(path),
  // The run engine and what only it imports, the stores and hosts, the Durable Object that holds a run.
  'run store': (path) =>
    /(?:^|\/)src\/(?:runs\/(?:create-run-engine|drive-runs|finished-runs|create-stored-runs|run-refusal|create-step-runner|follow-run|run-background-attempt|run-cancellation|run-lifetime|run-notifier|run-transitions|stored-input-events|segment-stream|with-run-index|create-memory-run-index)|store\/memory\/(?:memory-run-store|create-memory-run-host)|adapter\/cloudflare-workers\/(?:create-tool-run-object|create-run-object-class|durable-object-run-|sql-run-index|worker-run-store|kv-run-store|create-kv-run))/.test(
      path,
    ),
}

/** Bytes per owner, largest first, and which of `pieces` the bundle carries (with their bytes). */
export function bundleShares(metafile) {
  const inputs = outputInputs(metafile)
  const owners = new Map()
  const carried = {}
  for (const [path, bytes] of Object.entries(inputs)) {
    owners.set(ownerOf(path), (owners.get(ownerOf(path)) ?? 0) + bytes)
    for (const [piece, test] of Object.entries(pieces)) if (test(path)) carried[piece] = (carried[piece] ?? 0) + bytes
  }
  return { owners: [...owners].sort((a, b) => b[1] - a[1]), carried }
}
