// The bundle baseline for a Valibot app: the greet tool of bench/bundle.bench.mjs's apps, written
// by hand on Hono with Valibot (JSON body, input validation, execute, output validation, JSON answer).
import { Hono } from 'hono'
import * as v from 'valibot'

const inputSchema = v.object({ name: v.pipe(v.string(), v.minLength(1)) })
const outputSchema = v.object({ message: v.string() })

const app = new Hono()

app.post('/tools/greet', async (c) => {
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    return c.json({ error: { code: 'INVALID_JSON', message: 'Request body is not valid JSON' } }, 400)
  }
  const parsed = v.safeParse(inputSchema, body)
  if (!parsed.success) return c.json({ error: { code: 'INPUT_VALIDATION_FAILED', message: parsed.issues.map((issue) => issue.message).join('; ') } }, 400)
  const output = v.parse(outputSchema, { message: `Hello, ${parsed.output.name}!` })
  return c.json({ status: 'completed', output })
})

export default app
