/** `toolroute/deno`: serving tools with `Deno.serve`, runs in Deno KV. */
export { serveTools, type ServeToolsOptions, type ToolServer } from './serve-tools.ts'
export { createDenoToolApp, type DenoToolApp, type DenoToolAppOptions } from './create-deno-tool-app.ts'
export { loadTools, type LoadedTools } from './load-tools.ts'
export { createDenoKvScheduler, type DenoKvScheduler } from './create-deno-kv-scheduler.ts'
export { createDenoKvRunStore, denoKvRunPrefix } from './deno-kv-run-store.ts'
export { createDenoKvIdempotencyStore, denoKvIdempotencyPrefix } from './deno-kv-idempotency-store.ts'
