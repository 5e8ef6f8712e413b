import type { ToolAppOptions } from '../http/tool-app-options.ts'

/** `oauth` in the config (SPEC §15): the authorization server whose tokens are trusted, and the scopes tools need. */
export type OAuthOptions = NonNullable<ToolAppOptions['oauth']>
