// The bundle baseline for a Zod app: the greet tool of bench/bundle.bench.mjs's apps, written by
// hand on Hono with Zod (JSON body, input validation, execute, output validation, JSON answer).
import { Hono } from 'hono'
import { z } from 'zod'

const inputSchema = z.object({ name: z.string().min(1) })
const outputSchema = z.object({ message: z.string() })

const app = new Hono()

app.post('/tools/greet', async (c) => {
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    return c.json({ error: { code: 'INVALID_JSON', message: 'Request body is not valid JSON' } }, 400)
  }
  const parsed = inputSchema.safeParse(body)
  if (!parsed.success) return c.json({ error: { code: 'INPUT_VALIDATION_FAILED', message: parsed.error.message } }, 400)
  const output = outputSchema.parse({ message: `Hello, ${parsed.data.name}!` })
  return c.json({ status: 'completed', output })
})

export default app
