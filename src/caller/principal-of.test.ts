import { Hono, type Context } from 'hono'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { CallerOptions } from './caller-options.ts'
import { principalOf } from './principal-of.ts'
import type { VerifiedToken } from './verified-token.ts'
import { resolveRequestContext, type RequestCaller } from './resolve-request-context.ts'

/** The caller and principal of one request to an app with `options`. */
async function callerOf(options: CallerOptions, headers: Record<string, string> = {}, sessionId?: string, token?: VerifiedToken) {
  let seen: { caller: RequestCaller; principal: string | null } | undefined
  const app = new Hono().onError((error, c) => c.text(error.message, 500)).get('/', async (c) => {
    if (token) c.set('verifiedToken' as never, token as never)
    const caller = await resolveRequestContext(c, options)
    seen = { caller, principal: await principalOf(c, options, caller.requestContext, caller, ...(sessionId ? [sessionId] : [])) }
    return c.body(null, 204)
  })
  const response = await app.request('/', { headers })
  if (response.status !== 204) throw new Error(await response.text())
  return seen!
}

const session = '5d3f1c2a-9b7e-4c1d-8a2b-3c4d5e6f7a8b'
const everything = { authorization: 'Bearer token', 'mcp-session-id': session, cookie: 'sid=1' }

describe('principalOf: SPEC §12 order', () => {
  it('an OAuth-verified token (SPEC §15) comes after the rule and the resolver, before the Authorization hash', async () => {
    const token: VerifiedToken = { issuer: 'https://auth.example.com/', subject: 'alice', claims: {}, scopes: [], missingScopes: () => [] }
    const resolver = () => ({ requestContext: {}, principal: 'user:u1' })
    expect((await callerOf({ principal: () => 'rule' }, everything, undefined, token)).principal).toBe('rule')
    expect((await callerOf({ resolveRequestContext: resolver }, everything, undefined, token)).principal).toBe('user:u1')
    expect((await callerOf({}, everything, undefined, token)).principal).toBe('oauth:https://auth.example.com/#alice')
  })

  it('the config rule first, then the resolver, then Authorization, then the MCP session, else nobody', async () => {
    const resolver = () => ({ requestContext: { userId: 'u1' }, principal: 'user:u1' })
    expect((await callerOf({ principal: (_c, context) => `rule:${context.userId}`, resolveRequestContext: resolver }, everything)).principal).toBe('rule:u1')
    expect((await callerOf({ resolveRequestContext: resolver }, everything)).principal).toBe('user:u1')
    expect((await callerOf({}, everything)).principal).toMatch(/^auth:[0-9a-f]{64}$/)
    expect((await callerOf({}, { 'mcp-session-id': session })).principal).toBe(`mcp-session:${session}`)
    expect((await callerOf({}, {}, session)).principal).toBe(`mcp-session:${session}`)
    // A session id this server cannot have made names no session.
    expect((await callerOf({}, { 'mcp-session-id': 'guess' })).principal).toBeNull()
    expect((await callerOf({})).principal).toBeNull()
  })

  it('a resolver that says `principal: null` falls through to the credential, as one that names none', async () => {
    const resolver = () => ({ requestContext: { userId: 'u1' }, principal: null })
    const { caller, principal } = await callerOf({ resolveRequestContext: resolver }, { authorization: 'Bearer token' })
    expect(caller.requestContext).toEqual({ userId: 'u1' })
    expect(principal).toMatch(/^auth:/)
  })
})

describe("resolveRequestContext's return", () => {
  it('a context as before, or { requestContext, principal }; only that exact shape is read as one', async () => {
    expect((await callerOf({ resolveRequestContext: () => ({ userId: 'u1' }) })).caller).toEqual({ requestContext: { userId: 'u1' }, resolved: true })
    // A context that merely has a `principal` field stays a context.
    const field = await callerOf({ resolveRequestContext: () => ({ principal: 'p', role: 'admin' }) })
    expect(field).toEqual({ caller: { requestContext: { principal: 'p', role: 'admin' }, resolved: true }, principal: null })
    const both = await callerOf({ resolveRequestContext: async () => ({ requestContext: undefined, principal: 'p' }) }, { 'x-request-context': '{"tenant":"t"}' })
    expect(both).toEqual({ caller: { requestContext: { tenant: 't' }, principal: 'p', resolved: true }, principal: 'p' })
    expect((await callerOf({ resolveRequestContext: () => undefined }, { 'x-request-context': '{"tenant":"t"}' })).caller).toEqual({ requestContext: { tenant: 't' } })
  })

  it('refuses that shape with a principal that is not a string (a numeric user id) instead of reading it as a context', async () => {
    const resolveRequestContext = (() => ({ requestContext: {}, principal: 42 })) as unknown as CallerOptions['resolveRequestContext']
    await expect(callerOf({ resolveRequestContext })).rejects.toThrow('resolveRequestContext returned a principal that is neither a string nor null')
  })

  it('types: both returns, sync or async, are accepted', () => {
    expectTypeOf<(c: Context) => { requestContext: { userId: string }; principal: string }>().toExtend<NonNullable<CallerOptions['resolveRequestContext']>>()
    expectTypeOf<(c: Context) => Promise<{ userId: string } | undefined>>().toExtend<NonNullable<CallerOptions['resolveRequestContext']>>()
  })
})
