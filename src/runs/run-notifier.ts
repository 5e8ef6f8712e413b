import type { ToolEvent } from '../protocol/tool-event.ts'

/** One follower's share of a run's transient chunks, each with the stored event it came after. */
export interface LiveSubscription {
  transients: { after: number | undefined; event: ToolEvent }[]
  /** Whether a follower is reading it (it then disposes it when it stops). */
  taken: boolean
  dispose(): void
}

/** Who waits on a run in this process: followers woken on a change, and subscriptions carrying transient chunks. */
export interface RunNotifier {
  notify(runId: string): void
  /** A promise that settles at the run's next change (or poll tick, or abort). */
  nextChange(runId: string, signal?: AbortSignal): { promise: Promise<void>; dispose(): void }
  /** Starts taking a run's transient chunks for one follower (eagerly for a step's own segment, so none is missed). */
  subscribe(runId: string): LiveSubscription
  /** Hands a transient chunk to every live follower, placed after stored event `after`. */
  deliver(runId: string, event: ToolEvent, after: number | undefined): void
}

/** `pollMs`: when runs are driven from several processes (KV), followers also wake this often. */
export function createRunNotifier(options: { pollMs?: number } = {}): RunNotifier {
  const listeners = new Map<string, Set<() => void>>()
  const live = new Map<string, Set<(event: ToolEvent, after: number | undefined) => void>>()
  const notify = (runId: string) => listeners.get(runId)?.forEach((wake) => wake())

  return {
    notify,
    nextChange(runId, signal) {
      let wake!: () => void
      const promise = new Promise<void>((resolve) => (wake = resolve))
      const set = listeners.get(runId) ?? new Set()
      listeners.set(runId, set)
      set.add(wake)
      const timer = options.pollMs ? setTimeout(wake, options.pollMs) : undefined
      signal?.addEventListener('abort', wake, { once: true })
      return {
        promise,
        dispose() {
          set.delete(wake)
          if (set.size === 0) listeners.delete(runId)
          if (timer) clearTimeout(timer)
          signal?.removeEventListener('abort', wake)
        },
      }
    },
    subscribe(runId) {
      const followers = live.get(runId) ?? new Set()
      live.set(runId, followers)
      const deliver = (event: ToolEvent, after: number | undefined) => {
        subscription.transients.push({ after, event })
        notify(runId)
      }
      const subscription: LiveSubscription = {
        transients: [],
        taken: false,
        dispose() {
          followers.delete(deliver)
          if (followers.size === 0 && live.get(runId) === followers) live.delete(runId)
        },
      }
      followers.add(deliver)
      return subscription
    },
    deliver(runId, event, after) {
      live.get(runId)?.forEach((deliver) => deliver(event, after))
    },
  }
}
