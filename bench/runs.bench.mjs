// Durable runs on workerd. (1) The create → approve → complete round trip of a run through
// toolroute (POST /tools/delete-file answers approval-required, POST /runs/:runId/approve runs it)
// against a bare Durable Object doing the same storage work by hand (one object per run: record,
// events and alarm on create; compare-and-set, execute, complete on approve), both behind a Worker
// fetch, as `wrangler deploy --dry-run` bundles them (bench/runs/). Sequential round trips from
// this process over loopback to a direct socket, in interleaved rounds (order swapped each round);
// medians and the toolroute ÷ bare ratio per round. (2) The bytes a waiting run stores beyond its
// payload, read from the run's own SQLite: record + events − payload (the tool input, plus the
// suspend payload for a suspended run), for a small and a 4 KiB input.
//
// node bench/run.mjs runs [--rounds 7] [--reps 30] [--json]
// (BENCH_DO_MEMORY=1: Durable Object storage in memory instead of a temporary directory on disk.)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { median, saveResult } from './measure.mjs'
import { buildTools, wranglerBundle } from './wrangler-bundle.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const args = process.argv.slice(2)
const option = (flag, fallback) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback)
const rounds = option('--rounds', 7)
const reps = option('--reps', 30)
const asJson = args.includes('--json')
const log = (...parts) => (asJson ? undefined : console.log(...parts))

// --- bundle, as `wrangler deploy` makes it ------------------------------------------------------
const config = join(here, 'runs/wrangler.toml')
log('bundling (toolroute build, wrangler deploy --dry-run --minify)…')
buildTools()
const { scriptPath, outdir } = wranglerBundle('runs', config)

// --- server: Durable Objects persisted on local disk, a direct socket to the Worker ---------------
const persist = mkdtempSync(join(tmpdir(), 'toolroute-bench-runs-'))
// modulesRules describes unbundled sources (the scripts here are bundled); Miniflare 5 refuses to convert it.
const { modulesRules: _modulesRules, ...workerOptions } = unstable_getMiniflareWorkerOptions(config).workerOptions
const miniflare = new Miniflare(convertV4MiniflareOptions({
  cf: false,
  durableObjectsPersist: process.env.BENCH_DO_MEMORY ? false : persist,
  workers: [{ ...workerOptions, name: 'runs', rootPath: outdir, modules: true, scriptPath, unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] }],
}))

try {
  await miniflare.ready
  const base = String(await miniflare.unsafeGetDirectURL('runs')).replace(/\/$/, '')
  const post = async (path, body, expected) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bench' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const json = await response.json()
    if (response.status !== expected) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json
  }

  // One round trip each; both check what they got, so neither can win by doing less.
  const contenders = {
    toolroute: async () => {
      const created = await post('/tools/delete-file', { path: '/tmp/report.txt' }, 202)
      const started = performance.now()
      const done = await post(`/runs/${created.runId}/approve`, undefined, 200)
      if (done.status !== 'completed' || done.output.deleted !== '/tmp/report.txt') throw new Error(`toolroute: ${JSON.stringify(done)}`)
      return performance.now() - started
    },
    bare: async () => {
      const created = await post('/bare/create', { path: '/tmp/report.txt' }, 202)
      const started = performance.now()
      const done = await post(`/bare/approve/${created.runId}`, undefined, 200)
      if (done.status !== 'completed' || done.output.deleted !== '/tmp/report.txt') throw new Error(`bare: ${JSON.stringify(done)}`)
      return performance.now() - started
    },
  }

  log(`round trips: ${rounds} rounds × ${reps} sequential create → approve → complete per contender (order swapped each round)`)
  for (const run of Object.values(contenders)) for (let index = 0; index < 20; index++) await run() // warm-up
  const samples = { toolroute: [], bare: [] }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['toolroute', 'bare'] : ['bare', 'toolroute']
    for (const name of order) {
      let approveMs = 0
      const started = performance.now()
      for (let index = 0; index < reps; index++) approveMs += await contenders[name]()
      const totalMs = performance.now() - started
      samples[name].push({ roundTripMs: totalMs / reps, approveMs: approveMs / reps, createMs: (totalMs - approveMs) / reps })
    }
  }

  // --- bytes stored per waiting run ------------------------------------------------------------
  const bytes = (value) => Buffer.byteLength(JSON.stringify(value))
  const stored = {}
  const waiting = {
    'approval, small input': { tool: 'delete-file', input: { path: '/tmp/report.txt' } },
    'approval, 4 KiB input': { tool: 'delete-file', input: { path: `/${'x'.repeat(4095)}` } },
    'suspended, small input': { tool: 'book-flight', input: { from: 'CDG', to: 'JFK' } },
  }
  for (const [label, { tool, input }] of Object.entries(waiting)) {
    const measured = []
    for (let index = 0; index < 5; index++) {
      const created = await post(`/tools/${tool}`, input, 202)
      const stats = await (await fetch(`${base}/__bench/stats/${created.runId}`)).json()
      const payloadBytes = bytes(input) + (created.suspendPayload === undefined ? 0 : bytes(created.suspendPayload))
      measured.push({ ...stats, payloadBytes, beyondPayload: stats.recordBytes + stats.eventBytes - payloadBytes })
    }
    stored[label] = Object.fromEntries(['payloadBytes', 'recordBytes', 'eventBytes', 'eventCount', 'beyondPayload', 'databaseSize'].map((key) => [key, median(measured.map((entry) => entry[key]))]))
  }

  // --- report ----------------------------------------------------------------------------------
  const summary = (name, key) => median(samples[name].map((sample) => sample[key]))
  const ratios = samples.toolroute.map((sample, index) => sample.roundTripMs / samples.bare[index].roundTripMs)
  const report = {
    rounds,
    reps,
    roundTrip: Object.fromEntries(['toolroute', 'bare'].map((name) => [name, { roundTripMs: summary(name, 'roundTripMs'), createMs: summary(name, 'createMs'), approveMs: summary(name, 'approveMs') }])),
    ratio: median(ratios),
    ratios,
    stored,
  }
  saveResult('runs', report)
  if (asJson) {
    console.log(JSON.stringify(report, null, 2))
  } else {
    console.log('\ncreate → approve → complete    round trip ms   create ms   approve ms   (medians)')
    for (const name of ['toolroute', 'bare']) {
      const { roundTripMs, createMs, approveMs } = report.roundTrip[name]
      console.log(`  ${name.padEnd(28)} ${roundTripMs.toFixed(2).padStart(13)} ${createMs.toFixed(2).padStart(11)} ${approveMs.toFixed(2).padStart(12)}`)
    }
    console.log(`  toolroute ÷ bare: ${report.ratio.toFixed(2)}×   (per round: ${ratios.map((value) => value.toFixed(2)).join(', ')})`)
    console.log('\nstored per waiting run (bytes, medians)   payload   record   events (n)   beyond payload   SQLite file')
    for (const [label, entry] of Object.entries(stored)) {
      console.log(
        `  ${label.padEnd(38)} ${String(entry.payloadBytes).padStart(7)} ${String(entry.recordBytes).padStart(8)} ${`${entry.eventBytes} (${entry.eventCount})`.padStart(12)} ${String(entry.beyondPayload).padStart(16)} ${String(entry.databaseSize).padStart(13)}`,
      )
    }
  }
} finally {
  await miniflare.dispose()
  rmSync(persist, { recursive: true, force: true })
}

