/** One page of a principal's run ids, newest first. */
export interface RunIndexPage {
  runIds: string[]
  /** Where the next page starts; absent on the last page. */
  nextCursor?: string
}

/**
 * Which runs a principal created (MCP `tasks/list`), kept beside the runs, which a store reads by
 * id only. Entries may outlive their runs: readers skip the gone. Runs without a principal are not
 * indexed: listing them would hand one anonymous caller's runs to another.
 */
export interface RunIndex {
  add(principal: string, runId: string, createdAt: string): Promise<void>
  /** `cursor` is a `nextCursor` of an earlier page; an unknown one reads as the start. */
  list(principal: string, page: { cursor?: string; limit: number }): Promise<RunIndexPage>
}
