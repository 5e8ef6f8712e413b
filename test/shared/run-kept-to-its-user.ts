import { expect } from 'vitest'

/** A signed-in user: its access token, and the MCP client it signed in with (closed here). */
export type SignedIn = { token: string; client: { close(): Promise<void> } }

/**
 * SPEC §12 under OAuth: the run `alice` starts (`deploy` asks for approval) is hers; `bob`'s token reads
 * and approves nothing of it (`404 RUN_NOT_FOUND`), and her token's text is never in the run.
 */
export async function expectRunKeptToItsUser(base: string, signIn: (user: string) => Promise<SignedIn>): Promise<void> {
  const alice = await signIn('alice')
  const bob = await signIn('bob')
  const as = (user: SignedIn, method = 'GET') => ({ method, headers: { authorization: `Bearer ${user.token}`, ...(method === 'POST' && { 'content-type': 'application/json' }) } })
  const started = (await (await fetch(`${base}/tools/deploy`, { ...as(alice, 'POST'), body: '{}' })).json()) as { runId: string; status: string }
  expect(started.status).toBe('approval-required')
  const own = await fetch(`${base}/runs/${started.runId}`, as(alice))
  expect(own.status).toBe(200)
  expect(await own.text()).not.toContain(alice.token)
  const foreign = await fetch(`${base}/runs/${started.runId}`, as(bob))
  expect([foreign.status, ((await foreign.json()) as { error: { code: string } }).error.code]).toEqual([404, 'RUN_NOT_FOUND'])
  expect((await fetch(`${base}/runs/${started.runId}/approve`, as(bob, 'POST'))).status).toBe(404)
  await alice.client.close()
  await bob.client.close()
}
