import type { playgroundPage } from './playground-page.ts'

/** Renders the page for an app whose routes live under `base` (`''` for `/`, else a path like `/v1`); with `auth` (the app's `auth` or `oauth`), the page asks for a token. */
export type PlaygroundPageLoader = (options: Parameters<typeof playgroundPage>[0]) => string | Promise<string>

/**
 * The playground page, imported on first use. An app gets it from whoever composes it:
 * `toolroute/server`'s `createToolApp` and the Deno adapter always, a Worker only when its
 * generated entry passes it (a dev build without `playground: false`, a deploy build with
 * `playground: true`), so a Worker that never serves the page does not carry its bytes.
 */
export const loadPlaygroundPage: PlaygroundPageLoader = (options) => import('./playground-page.ts').then((module) => module.playgroundPage(options))
