// The baseline: what a developer would write by hand for the weather tool on Hono, doing the
// same work as toolroute's route: JSON body, Zod input validation, execute, Zod output
// validation, run and call ids, and the same JSON answer (or the same SSE events).
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { weatherTool } from '../../tools/weather-tool.ts'

const { inputSchema, outputSchema } = weatherTool
const execute = weatherTool.options.execute!

const app = new Hono()

app.post('/tools/weather-tool', async (c) => {
  if (!(c.req.header('content-type') ?? '').startsWith('application/json')) return c.json({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'application/json only' } }, 415)
  const text = await c.req.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return c.json({ error: { code: 'INVALID_JSON', message: 'Request body is not valid JSON' } }, 400)
  }
  const parsed = inputSchema.safeParse(body)
  if (!parsed.success) return c.json({ error: { code: 'INPUT_VALIDATION_FAILED', message: parsed.error.message } }, 400)
  const runId = `run_${crypto.randomUUID()}`
  const toolCallId = c.req.header('x-tool-call-id') || `call_${crypto.randomUUID()}`
  const headers = { 'x-run-id': runId, 'x-tool-call-id': toolCallId }
  const output = outputSchema.parse(await execute(parsed.data, {} as never))

  if (!(c.req.header('accept') ?? '').includes('text/event-stream')) {
    return c.json({ runId, toolCallId, status: 'completed', output, modelOutput: { type: 'json', value: output } }, 200, headers)
  }
  for (const [name, value] of Object.entries({ ...headers, 'x-vercel-ai-ui-message-stream': 'v1' })) c.header(name, value)
  return streamSSE(c, async (stream) => {
    const events = [
      { type: 'start', messageMetadata: { runId, toolCallId } },
      { type: 'tool-input-start', toolCallId, toolName: 'weather-tool' },
      { type: 'tool-input-delta', toolCallId, inputTextDelta: text },
      { type: 'tool-input-available', toolCallId, toolName: 'weather-tool', input: body },
      { type: 'tool-output-available', toolCallId, output },
      { type: 'finish', finishReason: 'stop' },
    ]
    for (const [index, event] of events.entries()) await stream.writeSSE({ id: String(index + 1), data: JSON.stringify(event) })
    await stream.writeSSE({ data: '[DONE]' })
  })
})

export default app
