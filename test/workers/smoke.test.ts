import { SELF } from 'cloudflare:test'
import { expect, it } from 'vitest'

it('serves a tool from workerd', async () => {
  const response = await SELF.fetch('http://tools.test/tools/weather-tool', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location: 'Paris' }),
  })
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ status: 'completed', output: { location: 'Paris' } })
})
