/** One page of a principal's run ids, newest first. */
export interface RunIndexPage {
  runIds: string[]
  /** Where the next page starts; absent on the last page. */
  nextCursor?: string
}

/**
 * Which runs a principal created, for listing them (MCP `tasks/list`). A run store answers by
 * run id only, and on Workers each run is an object of its own, so the list is kept beside the
 * runs: a Map in memory, a Durable Object per principal, KV or Deno KV keys. Entries may outlive
 * their runs (a settled run is deleted after its retention): readers skip the ones that are gone.
 * Runs without a principal are not indexed: their id is their only key, and listing them would
 * hand one anonymous caller's runs to another.
 */
export interface RunIndex {
  add(principal: string, runId: string, createdAt: string): Promise<void>
  /** `cursor` is a `nextCursor` of an earlier page; an unknown one reads as the start. */
  list(principal: string, page: { cursor?: string; limit: number }): Promise<RunIndexPage>
}
