import { createTool } from 'toolroute'
import { z } from 'zod'

/**
 * Elicitation: called over MCP, the tool asks the user mid-call to confirm the order (and lets
 * them change the quantity) through `context.mcp.elicitation.sendRequest`, then goes on with the
 * answer. Called over HTTP there is no one to ask: the order is placed as requested.
 */
export const confirmOrder = createTool({
  id: 'confirm-order',
  description: 'Place an order for an item, asking the user to confirm it first',
  inputSchema: z.object({ item: z.string().min(1), quantity: z.number().int().positive() }),
  outputSchema: z.object({ status: z.enum(['placed', 'cancelled']), item: z.string(), quantity: z.number(), orderId: z.string().optional() }),
  mcp: { annotations: { title: 'Confirm order', readOnlyHint: false, destructiveHint: false, openWorldHint: false } },
  execute: async ({ item, quantity }, { mcp }) => {
    let confirmed = quantity
    if (mcp) {
      const answer = await mcp.elicitation.sendRequest({
        message: `Place an order for ${quantity} × ${item}?`,
        requestedSchema: {
          type: 'object',
          properties: {
            confirm: { type: 'boolean', title: 'Place the order' },
            quantity: { type: 'integer', title: 'Quantity', minimum: 1, default: quantity },
          },
          required: ['confirm'],
        },
      })
      if (answer.action !== 'accept' || answer.content?.confirm !== true) return { status: 'cancelled' as const, item, quantity }
      confirmed = typeof answer.content.quantity === 'number' ? answer.content.quantity : quantity
    }
    return { status: 'placed' as const, item, quantity: confirmed, orderId: `ord_${item.toLowerCase().replace(/[^a-z0-9]+/g, '-')}_${confirmed}` }
  },
})
