import { lineAt, readWranglerConfig } from './wrangler-config.mjs'

/** The Durable Object bindings the generated entry serves, by binding name. */
export const durableObjects = { TOOLROUTE_RUNS: 'ToolRunObject', TOOLROUTE_MCP: 'McpSessionObject', TOOLROUTE_IDEMPOTENCY: 'IdempotencyObject' }

/** Why each binding may be needed, for the message that says it is missing. */
const neededBy = {
  TOOLROUTE_RUNS: 'runs of tools that require approval, suspend or run in the background, and of calls with an Idempotency-Key (set `runs` in toolroute.config.ts to keep them elsewhere)',
  TOOLROUTE_IDEMPOTENCY: 'calls with an Idempotency-Key, which toolroute/client and toolroute/ai send on every call (or set `idempotency: false` in toolroute.config.ts to ignore the header)',
}

/** `durable_objects.bindings` of a parsed wrangler config, each with the line its name is on. */
export function readBindings({ config, text }) {
  const bindings = Array.isArray(config.durable_objects?.bindings) ? config.durable_objects.bindings : []
  return bindings.map((binding) => ({ name: binding?.name, class_name: binding?.class_name, line: lineOf(text, binding?.name) }))
}

function lineOf(text, name) {
  const at = typeof name === 'string' ? text.search(new RegExp(`["']${name}["']`)) : -1
  return at === -1 ? undefined : lineAt(text, at)
}

/** What to add to the config file for a binding, in the file's own syntax. */
function snippet(file, name) {
  const className = durableObjects[name]
  return file === 'wrangler.toml'
    ? `[[durable_objects.bindings]]\n    name = "${name}"\n    class_name = "${className}"`
    : `{ "name": "${name}", "class_name": "${className}" } in "durable_objects": { "bindings": [...] }`
}

/**
 * What the project's wrangler config (wrangler.json, wrangler.jsonc or wrangler.toml) lacks for
 * the Worker `toolroute build` writes: every binding it will use, named with the file, so a missing
 * one is a build error and not an `EXECUTION_FAILED` at the first approval or keyed call. A
 * binding whose class is not the one the entry exports is wrong whatever the tools are.
 * (TOOLROUTE_MCP is optional: without it MCP is served statelessly.) No config file: nothing to check.
 */
export function checkBindings(root, { needsRuns, needsIdempotency, needsOAuthKv }) {
  let read
  try {
    read = readWranglerConfig(root)
  } catch (error) {
    return [error.message]
  }
  if (!read) return []
  const bindings = readBindings(read)
  const problems = []
  for (const binding of bindings) {
    const expected = durableObjects[binding.name]
    if (expected && binding.class_name !== expected) {
      problems.push(`${read.file}${binding.line ? `:${binding.line}` : ''}: binding ${binding.name} must use class_name = "${expected}" (the class .toolroute/worker.ts exports), not ${JSON.stringify(binding.class_name ?? '')}`)
    }
  }
  const needed = [...(needsRuns ? ['TOOLROUTE_RUNS'] : []), ...(needsIdempotency ? ['TOOLROUTE_IDEMPOTENCY'] : [])]
  for (const name of needed) {
    if (bindings.some((binding) => binding.name === name)) continue
    problems.push(
      `${read.file}: no Durable Object binding ${name} (class_name = "${durableObjects[name]}", with a migration adding it to new_sqlite_classes), needed by ${neededBy[name]}. Add:\n    ${snippet(read.file, name)}`,
    )
  }
  // The built-in authorization server (`oauth: { provider: 'builtin' }`) keeps clients, grants and tokens in KV.
  const kv = Array.isArray(read.config.kv_namespaces) ? read.config.kv_namespaces : []
  if (needsOAuthKv && !kv.some((namespace) => namespace?.binding === 'OAUTH_KV')) {
    const add = read.file === 'wrangler.toml' ? '[[kv_namespaces]]\n    binding = "OAUTH_KV"\n    id = "<the namespace id of `wrangler kv namespace create OAUTH_KV`>"' : '{ "binding": "OAUTH_KV", "id": "…" } in "kv_namespaces": [...]'
    problems.push(`${read.file}: no KV namespace bound as OAUTH_KV, where oauth: { provider: 'builtin' } keeps its clients, grants and tokens. Add:\n    ${add}`)
  }
  return problems
}
