import { expectTypeOf, test } from 'vitest'
import type { ToolrouteConfig } from '../adapter/cloudflare-workers/create-worker.ts'
import type { ToolAppOptions } from './tool-app-options.ts'

test('playground is a boolean option of the app and of toolroute.config.ts', () => {
  expectTypeOf<ToolAppOptions['playground']>().toEqualTypeOf<boolean | undefined>()
  expectTypeOf<ToolrouteConfig['playground']>().toEqualTypeOf<boolean | undefined>()
  // @ts-expect-error: not a mode string, a boolean
  const config: ToolrouteConfig = { playground: 'local' }
  void config
})
