// The README's "Idempotent calls" requests, over real HTTP against `wrangler dev` (the example
// Worker and its root wrangler.toml, with the TOOLROUTE_IDEMPOTENCY binding and migration).
import { describe, expect, inject, it } from 'vitest'

const baseUrl = inject('baseUrl')
const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}/tools/weather-tool`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key, ...headers }, body: JSON.stringify(body) })

describe('Idempotency-Key under wrangler dev', () => {
  it('executes once, replays with idempotent-replayed, refuses another body with 422', async () => {
    const key = `call_${crypto.randomUUID()}`
    const first = await post(key, { location: 'Lisbon' })
    const firstText = await first.text()
    expect(first.status).toBe(200)
    expect(JSON.parse(firstText)).toMatchObject({ status: 'completed', output: { location: 'Lisbon' } })

    const again = await post(key, { location: 'Lisbon' })
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.headers.get('x-run-id')).toBe(first.headers.get('x-run-id'))
    expect(await again.text()).toBe(firstText)

    const other = await post(key, { location: 'Porto' })
    expect(other.status).toBe(422)
    expect(await other.json()).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } })

    const replayed = await post(key, { location: 'Lisbon' }, { accept: 'text/event-stream' })
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    const text = await replayed.text()
    expect(text).toContain('"type":"tool-output-available"')
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)
  })
})
