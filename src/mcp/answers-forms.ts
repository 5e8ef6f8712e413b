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

