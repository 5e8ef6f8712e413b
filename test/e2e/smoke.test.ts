import { expect, inject, it } from 'vitest'

it('wrangler dev serves the example tools', async () => {
  const response = await fetch(`${inject('baseUrl')}/tools`)
  const body = (await response.json()) as { tools: { id: string }[] }
  expect(body.tools.map((tool) => tool.id)).toContain('weather-tool')
})
