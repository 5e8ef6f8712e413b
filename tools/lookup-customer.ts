import { createTool } from 'toolroute'
import { z } from 'zod'

/**
 * `transform`: the runtime and the calling app get the full record; the display stream shows
 * a masked email and no internal notes; the transcript keeps only what a reviewer needs.
 */
export const lookupCustomer = createTool({
  id: 'lookup-customer',
  description: 'Look up a customer by email',
  inputSchema: z.object({ email: z.email() }),
  outputSchema: z.object({ id: z.string(), name: z.string(), email: z.string(), plan: z.string(), internalNotes: z.string() }),
  requestContextSchema: z.object({ tenantId: z.string() }),
  execute: async ({ email }, { requestContext }) => ({
    id: `cus_${requestContext.get('tenantId')}_42`,
    name: 'Ada Lovelace',
    email,
    plan: 'pro',
    internalNotes: 'VIP, refund approved 2026-10-01',
  }),
  // #region transform
  transform: {
    display: {
      input: ({ input }) => ({ email: maskEmail(input?.email) }),
      output: ({ output }) => (output ? { name: output.name, plan: output.plan } : undefined),
    },
    transcript: {
      input: ({ input }) => ({ email: maskEmail(input?.email) }),
      output: ({ output }) => (output ? { id: output.id, plan: output.plan } : undefined),
    },
  },
  // #endregion
})

function maskEmail(email: string | undefined): string {
  if (!email) return '***'
  const [user = '', domain = ''] = email.split('@')
  return `${user.slice(0, 1)}***@${domain}`
}
