import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities } from '@modelcontextprotocol/server'

/** Whether a client can answer a form: it declares form elicitation, or a bare `elicitation: {}` (the rule before modes). */
export function canAnswerForms(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation
  return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0)
}

/** `canAnswerForms` of a 2026-07-28 request, whose envelope carries its client's capabilities. */
export function answersForms(envelope: Record<string, unknown> | undefined): boolean {
  return canAnswerForms(envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
}

/** `answersForms` of a `tools/call` body not yet handed to the SDK (its `params._meta` is the envelope). */
export function callAnswersForms(body: unknown): boolean {
  return answersForms((body as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta)
}
