import { durableObjects } from './check-bindings.mjs'

/**
 * The toolroute Durable Object classes a parsed wrangler config declares: bound in
 * `durable_objects.bindings` (top level or under an `[env.*]`), or created by a migration and
 * neither renamed away nor deleted since. A deploy refuses a script that does not export a class
 * its config declares, so the entry exports each, the Worker's own or a stand-in.
 */
export function declaredClasses(config) {
  const ours = new Set(Object.values(durableObjects))
  const declared = new Set()
  const bindingsOf = (scope) => (Array.isArray(scope?.durable_objects?.bindings) ? scope.durable_objects.bindings : [])
  for (const binding of [bindingsOf(config), ...Object.values(config.env ?? {}).map(bindingsOf)].flat()) declared.add(binding?.class_name)
  for (const migration of Array.isArray(config.migrations) ? config.migrations : []) {
    for (const name of [...(migration.new_classes ?? []), ...(migration.new_sqlite_classes ?? [])]) declared.add(name)
    for (const { from, to } of migration.renamed_classes ?? []) declared.delete(from), declared.add(to)
    for (const name of migration.deleted_classes ?? []) declared.delete(name)
  }
  return new Set([...declared].filter((name) => ours.has(name)))
}

// What a class the config declares does in a Worker without its feature: nothing reaches it (no
// route opens a run or a session), and an alarm left by what an earlier version stored clears it.
const standIns = {
  ToolRunObject: 'this Worker keeps no runs',
  McpSessionObject: 'this Worker keeps no MCP sessions (no /mcp, or no TOOLROUTE_MCP binding)',
  IdempotencyObject: 'this Worker ignores Idempotency-Key',
}

/**
 * The entry's Durable Object exports: the Worker's class for each feature it has (`IdempotencyObject`
 * with keys, `ToolRunObject` with a run store, `McpSessionObject` with MCP sessions), and for a class the project's
 * wrangler config declares (`declared`, every one when there is no config) that the Worker has no
 * feature for, a stand-in without the feature's code. A class neither used nor declared is left out.
 */
export function durableObjectExports({ declared, runStore, mcp, keys }) {
  const has = { ToolRunObject: Boolean(runStore), McpSessionObject: mcp, IdempotencyObject: keys }
  const lines = []
  let standIn = false
  for (const name of ['ToolRunObject', 'McpSessionObject', 'IdempotencyObject']) {
    if (has[name]) lines.push(`export class ${name} extends worker.${name} {}`)
    else if (declared.has(name)) {
      standIn = true
      lines.push(`/** Declared by the wrangler config, but ${standIns[name]}: the class without its code, clearing what an earlier version stored. */`)
      lines.push(`export class ${name} extends DurableObject {\n  async alarm(): Promise<void> {\n    await this.ctx.storage.deleteAll()\n  }\n}`)
    }
  }
  return { imports: standIn ? "import { DurableObject } from 'cloudflare:workers'\n" : '', exports: `${lines.join('\n')}\n` }
}
