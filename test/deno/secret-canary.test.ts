// The secret canary under Deno (runs in Deno KV): the canary of every schema kind
// (test/fixtures/canary-tools.ts) fails input, request context, output, suspend payload and
// resume data; every answer, SSE views included, goes through the suite's scanner
// (test/shared/secret-scan.ts), and the stored runs' error and transcript must not carry the secret.
import assert from 'node:assert/strict'
import { createDenoToolApp } from 'toolroute/deno'
import { canaryFailing, canaryKindTools, canaryKinds, canarySecret } from '../fixtures/canary-tools.ts'
import { emptyTally, scanExchange } from '../shared/secret-scan.ts'

Deno.test('no validation message carries the secret, in any schema kind, view or stored run', async () => {
  const kv = await Deno.openKv(':memory:')
  const tally = emptyTally()
  try {
    const { app } = await createDenoToolApp({ tools: canaryKindTools, kv, queue: false })
    const context = { 'x-request-context': JSON.stringify({ apiKey: `sk_${canarySecret}` }) }
    const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await app.request(path, { method, headers: { 'content-type': 'application/json', ...context, ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      const text = await response.text()
      scanExchange(tally, { method, url: `http://deno.test${path}`, carriedSecret: true, status: response.status, contentType: response.headers.get('content-type') ?? '', text })
      return { response, text }
    }
    const valid = { label: 'visible', secret: canarySecret }
    for (const kind of canaryKinds) {
      const tool = `/tools/canary-${kind}`
      for (const view of ['', '?view=display', '?view=transcript', '?view=raw']) {
        // A body without Content-Length streams: with SSE, its refusal is a `tool-input-error` event.
        const sse: Record<string, string> = view ? { accept: 'text/event-stream' } : {}
        const refused = (status: number, text: string) => status === 400 || (status === 200 && text.includes('tool-input-error'))
        const input = await send('POST', tool + view, canaryFailing.input, sse)
        assert.ok(refused(input.response.status, input.text), `${kind}${view}: ${input.text}`)
        const badContext = await send('POST', tool + view, valid, { ...sse, 'x-request-context': JSON.stringify(canaryFailing.requestContext) })
        assert.equal(badContext.response.status, 400)
        for (const mode of ['bad-output', 'bad-suspend']) await send('POST', tool + view, { ...valid, mode }, sse)
      }
      for (const mode of ['bad-output', 'bad-suspend']) {
        // A keyed call is stored, its failure included.
        const failed = await send('POST', tool, { ...valid, mode }, { 'idempotency-key': `${kind}-${mode}` })
        const runId = failed.response.headers.get('x-run-id')
        assert.ok(runId, `${kind} ${mode}: a stored run`)
        const run = JSON.parse((await send('GET', `/runs/${runId}`)).text) as { status: string }
        assert.equal(run.status, 'failed', JSON.stringify(run))
        await send('GET', `/runs/${runId}/events?view=transcript`, undefined, { accept: 'text/event-stream' })
      }
      const suspended = await send('POST', tool, { ...valid, mode: 'suspend' })
      const runId = suspended.response.headers.get('x-run-id')!
      assert.equal((await send('POST', `/runs/${runId}/resume`, { resumeData: canaryFailing.resume })).response.status, 400)
      assert.equal((JSON.parse((await send('GET', `/runs/${runId}`)).text) as { status: string }).status, 'suspended')
    }
  } finally {
    kv.close()
  }
  console.log(`deno secret canary: ${tally.bodies} answers and ${tally.events} events scanned (${tally.raw} raw views: their errorText); ${tally.leaks.length} occurrences`)
  assert.deepEqual(tally.leaks, [])
})
