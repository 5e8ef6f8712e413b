// SPEC §8 in the run engine (memory store): what a tool writes during a durable step is
// appended to the run's log in order; a transient chunk reaches the step's live readers, in its
// place among the stored events, and is never stored.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/runtime/create-tool.ts'
import { createRunEngine } from '../../src/runs/create-run-engine.ts'
import { driveRuns } from '../../src/runs/drive-runs.ts'
import type { RunRecord } from '../../src/runs/run-record.ts'
import { isToolDataEvent, type SequencedEvent } from '../../src/protocol/tool-event.ts'
import type { AnyTool } from '../../src/tool/tool-types.ts'
import { createMemoryRunStore } from '../../src/store/memory/memory-run-store.ts'

const writes = createTool({
  id: 'writes',
  description: 'Needs approval; writes, heartbeats (at once, before any await) and yields',
  inputSchema: z.object({}),
  requireApproval: true,
  async *execute(_input, { writer }) {
    void writer.custom({ type: 'data-heartbeat', data: 0, transient: true })
    await writer.write('one')
    await writer.custom({ type: 'data-heartbeat', data: 1, transient: true })
    await writer.custom({ type: 'data-note', data: 'kept' })
    yield 'draft'
  },
})
const tools = new Map<string, AnyTool>([[writes.id, writes as unknown as AnyTool]])

const waiting = (runId: string): RunRecord => ({
  runId,
  toolId: 'writes',
  toolCallId: 'call_1',
  principal: null,
  status: 'approval-required',
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  input: {},
  requestContext: {},
  approvalId: 'approval_1',
})

const brief = (entries: SequencedEvent[]) =>
  entries.map(({ seq, event }) => `${seq}:${event.type}${'preliminary' in event && event.preliminary ? '*' : ''}${isToolDataEvent(event, 'data-heartbeat') ? `(${String(event.data)})` : ''}`)

describe('run engine: streamed output', () => {
  it('the step’s reader gets every chunk in order, transient ones under the number before them; the log keeps the rest', async () => {
    const store = createMemoryRunStore()
    const engine = createRunEngine({ drive: driveRuns(tools), store })
    await engine.open(waiting('r1'), [])
    const segment = await engine.approve('r1', { principal: null })
    // The reader starts late (after the step began): the first heartbeat still reaches it.
    await new Promise((resolve) => setTimeout(resolve, 20))
    const read: SequencedEvent[] = []
    for await (const entry of segment.events) read.push(entry)
    expect((await segment.settled).status).toBe('completed')
    expect(brief(read)).toEqual([
      '1:start',
      '2:tool-approval-response',
      '2:data-heartbeat(0)',
      '3:data-tool-output',
      '3:data-heartbeat(1)',
      '4:data-note',
      '5:tool-output-available*',
      '6:tool-output-available',
      '7:data-tool-model-output',
      '8:finish',
    ])
    const stored = await store.events('r1', 0)
    expect(brief(stored)).toEqual(brief(read).filter((line) => !line.includes('heartbeat')))
    // A later reader replays the log: no transient chunk.
    const replay: SequencedEvent[] = []
    for await (const entry of await engine.follow('r1', { principal: null, after: 0 })) replay.push(entry)
    expect(brief(replay)).toEqual(brief(stored))
  })
})
