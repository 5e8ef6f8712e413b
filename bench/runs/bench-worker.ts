// The Worker of bench/runs.bench.mjs. Three things behind one fetch:
// - everything else: toolroute's example tools on Durable Object runs, as .toolroute/worker.ts serves
//   them, with MCP off (no run route goes through it, and it would only warn that no server was given);
// - /bare/*: a hand-written Durable Object doing the storage work of the same run (create with
//   its events and alarm, then compare-and-set, execute, complete, in one object per run);
// - /__bench/stats/:runId: what a run's object stores, read from its SQLite (outside the timings).
import { DurableObject } from 'cloudflare:workers'
// Relative: bench/ has a package.json of its own, so the self-reference 'toolroute/workers' does not resolve here.
import { createWorker, workerKeyStore, workerRunStore } from '../../src/workers.ts'
import { tools } from '../../.toolroute/tools.ts'

const worker = createWorker({ tools, mcp: false, runStore: workerRunStore, keyStore: workerKeyStore })
const day = 24 * 60 * 60 * 1000

export class ToolRunObject extends worker.ToolRunObject {
  /** Bytes this object stores for its run: the record, each event, and the SQLite file. */
  stats() {
    const sql = this.ctx.storage.sql
    const record = sql.exec<{ bytes: number }>('SELECT COALESCE(SUM(LENGTH(CAST(record AS BLOB))), 0) AS bytes FROM run').one().bytes
    const events = sql.exec<{ bytes: number; count: number }>('SELECT COALESCE(SUM(LENGTH(CAST(body AS BLOB))), 0) AS bytes, COUNT(*) AS count FROM event').one()
    return { recordBytes: record, eventBytes: events.bytes, eventCount: events.count, databaseSize: sql.databaseSize }
  }
}

/** The baseline: the same rows a toolroute run writes, written by hand, no framework. */
export class BareRunObject extends DurableObject {
  private readonly sql = this.ctx.storage.sql

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never)
    this.sql.exec('CREATE TABLE IF NOT EXISTS run (id TEXT PRIMARY KEY, record TEXT NOT NULL)')
    this.sql.exec('CREATE TABLE IF NOT EXISTS event (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)')
  }

  private events(bodies: unknown[]) {
    const last = this.sql.exec<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM event').one().seq ?? 0
    bodies.forEach((body, index) => this.sql.exec('INSERT INTO event (seq, body) VALUES (?, ?)', last + index + 1, JSON.stringify(body)))
  }

  async create(runId: string, input: { path: string }): Promise<string> {
    const approvalId = `approval_${crypto.randomUUID()}`
    const at = new Date().toISOString()
    const record = { runId, toolId: 'delete-file', status: 'approval-required', createdAt: at, updatedAt: at, input, approvalId, expiresAt: new Date(Date.now() + day).toISOString() }
    this.ctx.storage.transactionSync(() => {
      this.sql.exec('INSERT INTO run (id, record) VALUES (?, ?)', runId, JSON.stringify(record))
      this.events([{ type: 'start', runId }, { type: 'tool-input-start' }, { type: 'tool-input-delta', delta: JSON.stringify(input) }, { type: 'tool-input-available', input }, { type: 'tool-approval-request', approvalId }, { type: 'finish' }])
    })
    await this.ctx.storage.setAlarm(Date.now() + day)
    return approvalId
  }

  async approve(runId: string): Promise<{ status: string; output?: unknown }> {
    // Compare-and-set, as toolroute does: only a run still waiting moves on.
    const claimed = this.ctx.storage.transactionSync(() => {
      const row = this.sql.exec<{ record: string }>('SELECT record FROM run WHERE id = ?', runId).toArray()[0]
      const record = row ? JSON.parse(row.record) : undefined
      if (record?.status !== 'approval-required') return undefined
      record.status = 'running'
      this.sql.exec('UPDATE run SET record = ? WHERE id = ?', JSON.stringify(record), runId)
      this.events([{ type: 'start', runId }, { type: 'tool-approval-response', approved: true }])
      return record
    })
    if (!claimed) return { status: 'conflict' }
    await this.ctx.storage.setAlarm(Date.now() + day)
    const output = { deleted: claimed.input.path }
    this.ctx.storage.transactionSync(() => {
      this.sql.exec('UPDATE run SET record = ? WHERE id = ?', JSON.stringify({ ...claimed, status: 'completed', output }), runId)
      this.events([{ type: 'tool-output-available', output }, { type: 'data-tool-model-output', output }, { type: 'finish' }])
    })
    await this.ctx.storage.setAlarm(Date.now() + day)
    return { status: 'completed', output }
  }

  async alarm() {}
}

interface Env {
  TOOLROUTE_RUNS: DurableObjectNamespace<ToolRunObject>
  BARE_RUNS: DurableObjectNamespace<BareRunObject>
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url)
    const [, area, action, runId] = url.pathname.split('/')
    if (area === 'bare') {
      if (action === 'create' && request.method === 'POST') {
        const input = (await request.json()) as { path: string }
        const id = crypto.randomUUID()
        const approvalId = await env.BARE_RUNS.get(env.BARE_RUNS.idFromName(id)).create(id, input)
        return Response.json({ runId: id, status: 'approval-required', approvalId }, { status: 202 })
      }
      if (action === 'approve' && runId && request.method === 'POST') {
        const result = await env.BARE_RUNS.get(env.BARE_RUNS.idFromName(runId)).approve(runId)
        return Response.json({ runId, ...result }, { status: result.status === 'conflict' ? 409 : 200 })
      }
    }
    if (area === '__bench' && action === 'stats' && runId) {
      return Response.json(await env.TOOLROUTE_RUNS.get(env.TOOLROUTE_RUNS.idFromName(runId)).stats())
    }
    return worker.fetch(request, env, ctx)
  },
}
