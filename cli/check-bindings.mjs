import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { wranglerTomlTables } from './wrangler-toml-tables.mjs'

/** The Durable Object bindings the generated entry serves, by binding name. */
export const durableObjects = { TOOLROUTE_RUNS: 'ToolRunObject', TOOLROUTE_MCP: 'McpSessionObject', TOOLROUTE_IDEMPOTENCY: 'IdempotencyObject' }

/** `[[durable_objects.bindings]]` of a wrangler.toml, each with the line its table starts on. */
export function readBindings(text) {
  return wranglerTomlTables(text)
    .filter((table) => table.header === '[[durable_objects.bindings]]')
    .map(({ line, fields }) => ({ line, name: fields.name, class_name: fields.class_name }))
}

/**
 * What wrangler.toml lacks for the tools it serves: a tool that waits for a human or runs in
 * the background keeps its run in the `TOOLROUTE_RUNS` Durable Object, so a missing binding is
 * a build error naming the file, not an `EXECUTION_FAILED` at the first approval. A binding
 * whose class is not the one the entry exports is wrong however the tools look.
 * (TOOLROUTE_MCP is optional: without it MCP is stateless. TOOLROUTE_IDEMPOTENCY too: without it a
 * call with an Idempotency-Key fails naming the binding.)
 */
export function checkBindings(root, { needsRuns }) {
  const file = join(root, 'wrangler.toml')
  if (!existsSync(file)) return []
  const bindings = readBindings(readFileSync(file, 'utf8'))
  const problems = []
  for (const binding of bindings) {
    const expected = durableObjects[binding.name]
    if (expected && binding.class_name !== expected) {
      problems.push(`wrangler.toml:${binding.line}: binding ${binding.name} must use class_name = "${expected}" (the class .toolroute/worker.ts exports), not ${JSON.stringify(binding.class_name ?? '')}`)
    }
  }
  if (needsRuns && !bindings.some((binding) => binding.name === 'TOOLROUTE_RUNS')) {
    problems.push(
      `wrangler.toml: no [[durable_objects.bindings]] named TOOLROUTE_RUNS (class_name = "ToolRunObject", with a migration adding it to new_sqlite_classes): tools that require approval, suspend or run in the background keep their runs there (or set \`runs\` in toolroute.config.ts)`,
    )
  }
  return problems
}
