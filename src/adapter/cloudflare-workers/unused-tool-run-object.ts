import { DurableObject } from 'cloudflare:workers'

/**
 * `ToolRunObject` in a Worker that keeps no runs (its entry passed no `runStore`): a project's
 * wrangler.toml binds the class whether or not a tool needs it (`toolroute init` writes it, and a
 * deploy refuses a bound class the script does not export), so it exists without carrying the run
 * engine. Nothing reaches it (the Worker opens no run); an alarm left by a run from when the Worker
 * kept them comes at that run's expiry or end of retention, and clears what it stored.
 */
export class UnusedToolRunObject extends DurableObject {
  async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll()
  }
}
