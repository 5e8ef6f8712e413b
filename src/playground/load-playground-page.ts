/** Renders the playground page for an app whose routes live under `base` (behind `auth`: the page asks for a token). */
export type PlaygroundPageLoader = (options: { base: string; auth?: boolean }) => string | Promise<string>

/**
 * The playground page, imported on first use. An app gets it from whoever composes it:
 * `toolroute/server`'s `createToolApp` and the Deno adapter always, a Worker only when its
 * generated entry passes it (a dev build without `playground: false`, a deploy build with
 * `playground: true`), so a Worker that never serves the page does not carry its bytes.
 */
export const loadPlaygroundPage: PlaygroundPageLoader = (options) => import('./playground-page.ts').then((module) => module.playgroundPage(options))
