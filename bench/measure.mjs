// A small side-by-side timer: contenders run interleaved in rounds (order rotated each round),
// so drift in CPU frequency or GC pressure hits all of them alike; results are medians.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A benchmark's command line: `option('--rounds', 15)` is the value after the flag (a number when the
 * fallback is one, else the string), or the fallback; `asJson` is `--json`, and `log` prints unless it.
 */
export function commandLine(args = process.argv.slice(2)) {
  const option = (flag, fallback) => {
    if (!args.includes(flag)) return fallback
    const value = args[args.indexOf(flag) + 1]
    return typeof fallback === 'number' ? Number(value) : value
  }
  const asJson = args.includes('--json')
  return { args, option, asJson, log: (...parts) => (asJson ? undefined : console.log(...parts)) }
}

/** An HTTP server on a free loopback port (a collector, a webhook receiver) calling `handler`; resolves with it and its URL. */
export async function loopbackServer(handler) {
  const server = createServer(handler)
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${server.address().port}` }
}

/** Runs `fn` `iterations` times, one call after another (each awaited), and returns ops/s. */
export async function timeCalls(fn, iterations) {
  const started = performance.now()
  for (let index = 0; index < iterations; index++) await fn()
  const elapsed = performance.now() - started
  return (iterations * 1000) / elapsed
}

/** How many calls of `fn` take about `targetMs`. */
export async function calibrate(fn, targetMs) {
  let iterations = 100
  for (;;) {
    const started = performance.now()
    for (let index = 0; index < iterations; index++) await fn()
    const elapsed = performance.now() - started
    if (elapsed >= targetMs / 4) return Math.max(100, Math.round((iterations * targetMs) / elapsed))
    iterations *= 4
  }
}

/** Writes a benchmark's figures to bench/results/<name>-<time>.<extension>; returns the path. */
export function saveResult(name, data, extension = 'json') {
  const dir = fileURLToPath(new URL('./results/', import.meta.url))
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.${extension}`)
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2))
  return file
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * A 95% interval for the median of `values` (a bootstrap: the median of 2,000 resamples, their
 * 2.5th and 97.5th percentiles). Per-round ratios on a shared machine spread by ±20%; this says
 * how far their median can be trusted, and so whether two medians differ at all.
 */
export function medianInterval(values, resamples = 2000) {
  const medians = []
  for (let index = 0; index < resamples; index++) medians.push(median(values.map(() => values[Math.floor(Math.random() * values.length)])))
  medians.sort((a, b) => a - b)
  return [medians[Math.floor(resamples * 0.025)], medians[Math.ceil(resamples * 0.975) - 1]]
}

/**
 * @param {Record<string, () => Promise<unknown>>} contenders
 * @param {{ rounds: number, sampleMs?: number, baseline: string, iterations?: number }} options
 *   `iterations`: calls a sample, the same for every contender, after one warm-up sample each (else calibrated to `sampleMs`).
 * @returns {Promise<Record<string, { opsPerSecond: number, ratio: number, samples: number[], ratios: number[] }>>}
 *   `ratio`: median over rounds of (baseline ops/s ÷ contender ops/s), i.e. time per call relative to the baseline; `ratios`: each round's.
 */
export async function compare(contenders, { rounds, sampleMs, baseline, iterations: fixed }) {
  const names = Object.keys(contenders)
  const iterations = {}
  if (fixed) {
    for (const name of names) await timeCalls(contenders[name], (iterations[name] = fixed))
  } else {
    // Calibrating warms every contender up (optimised code, settled feedback) before any sample counts.
    for (let pass = 0; pass < 3; pass++) {
      for (const name of names) iterations[name] = await calibrate(contenders[name], sampleMs)
    }
  }
  const samples = Object.fromEntries(names.map((name) => [name, []]))
  const ratios = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, index) => names[(index + round) % names.length])
    const opsThisRound = {}
    for (const name of order) {
      opsThisRound[name] = await timeCalls(contenders[name], iterations[name])
      samples[name].push(opsThisRound[name])
    }
    for (const name of names) ratios[name].push(opsThisRound[baseline] / opsThisRound[name])
  }
  return Object.fromEntries(
    names.map((name) => [name, { opsPerSecond: median(samples[name]), ratio: median(ratios[name]), samples: samples[name], ratios: ratios[name] }]),
  )
}

// The CPU time of the workerd that Miniflare started (a child of this process), all its threads, from /proc:
// a reader of it in nanoseconds, or undefined where there is no /proc (macOS) or no such workerd.
export function workerdCpuNs() {
  if (!existsSync('/proc/self/schedstat')) return undefined
  const parentOf = (pid) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1])
  const isOurs = (entry) => /^\d+$/.test(entry) && readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'workerd' && parentOf(entry) === process.pid
  const pid = readdirSync('/proc').find((entry) => {
    try {
      return isOurs(entry)
    } catch {
      return false // a process that ended while we looked
    }
  })
  return pid ? () => readdirSync(`/proc/${pid}/task`).reduce((sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]), 0) : undefined
}
