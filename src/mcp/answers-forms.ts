import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities } from '@modelcontextprotocol/server'

/**
 * Whether a 2026-07-28 request's client can answer a form question: its envelope declares form
 * elicitation, or a bare `elicitation: {}` (form support, the rule before elicitation had modes,
 * as the SDK reads it). A client that cannot is never asked: it could never send the answer.
 */
export function answersForms(envelope: Record<string, unknown> | undefined): boolean {
  const elicitation = (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)?.elicitation
  return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0)
}

/** `answersForms` of a `tools/call` body not yet handed to the SDK (its `params._meta` is the envelope). */
export function callAnswersForms(body: unknown): boolean {
  return answersForms((body as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta)
}
