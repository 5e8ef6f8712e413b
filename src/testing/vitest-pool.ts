import type { Fetcher } from '../client/tool-client-types.ts'

/** What `toolroute/testing` uses of `@cloudflare/vitest-plugin`'s pool: the Worker under test and its run objects' alarms. */
export interface VitestPool {
  /** The Worker's default export (`exports.default` of `cloudflare:workers`, what `SELF` was). */
  self: Fetcher
  /** The `TOOLROUTE_RUNS` binding of the Worker's environment, when it has one: what `settle` uses of it, typed here without Workers types. */
  runs: { idFromName(name: string): unknown; get(id: never): object } | undefined
  /** Runs the object's alarm if it is due (answers whether it ran); an alarm set for later is left alone. */
  runDueAlarm(stub: object): Promise<boolean>
}

/** The part of `cloudflare:test` used here. */
interface PoolTestModule {
  SELF: Fetcher
  runInDurableObject<R>(
    stub: object,
    callback: (instance: { alarm?(): unknown }, state: { storage: { getAlarm(): Promise<number | null>; deleteAlarm(): Promise<void> } }) => Promise<R>,
  ): Promise<R>
}

let loading: Promise<VitestPool> | undefined

/**
 * The pool's modules, imported on first use: `cloudflare:test` exists only inside the pool, so a
 * static import would keep `toolroute/testing` (and `runTool`) from loading anywhere else.
 */
export function loadVitestPool(): Promise<VitestPool> {
  return (loading ??= (async () => {
    try {
      const [test, workers] = (await Promise.all([import('cloudflare:test'), import('cloudflare:workers')])) as unknown as [
        PoolTestModule,
        { env: Record<string, unknown>; exports: { default?: Fetcher } },
      ]
      return {
        self: workers.exports.default ?? test.SELF,
        runs: workers.env.TOOLROUTE_RUNS as VitestPool['runs'],
        // What `runDurableObjectAlarm` does, only for an alarm that is due: that one runs any alarm,
        // and would delete the watchdog an attempt at work set for later (run-background-attempt.ts).
        // Read, deleted and run inside one call of the object, so its own alarm cannot fire between.
        runDueAlarm: (stub) =>
          test.runInDurableObject(stub, async (instance, state) => {
            const at = await state.storage.getAlarm()
            if (at === null || at > Date.now()) return false
            await state.storage.deleteAlarm()
            await instance.alarm?.()
            return true
          }),
      }
    } catch (error) {
      loading = undefined
      throw new TypeError("createTestClient() with no options calls the Worker under test inside @cloudflare/vitest-plugin's pool; elsewhere pass { fetcher } or { baseUrl }", { cause: error })
    }
  })())
}

/** Whether this code runs in workerd, where the pool may be. */
export const inWorkerd = () => typeof navigator !== 'undefined' && navigator.userAgent === 'Cloudflare-Workers'
