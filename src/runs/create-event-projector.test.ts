import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'
import { createEventProjector } from './create-event-projector.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'

const run = { runId: 'run_1', toolCallId: 'call_1' }
const lifecycle: ToolEvent[] = [
  { type: 'start', messageMetadata: run },
  { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'lookup' },
  { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '{"ssn":"123-45-6789"}' },
  { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'lookup', input: { ssn: '123-45-6789' } },
  { type: 'tool-approval-request', approvalId: 'approval_1', toolCallId: 'call_1' },
  { type: 'tool-approval-response', approvalId: 'approval_1', approved: false, reason: 'customer 123-45-6789 is VIP' },
  { type: 'data-tool-suspended', data: { ...run, suspendPayload: { question: 'Confirm 123-45-6789?' } } },
  { type: 'data-tool-resumed', data: { ...run, resumeData: { confirmed: true, pin: '0000' } } },
  { type: 'data-tool-log', data: { level: 'info', message: 'looked up', time: '2026-01-01T00:00:00.000Z' } },
  { type: 'data-tool-span', data: { spanId: 's1', name: 'db', phase: 'start' } },
  { type: 'tool-output-available', toolCallId: 'call_1', output: { name: 'Ada', ssn: '123-45-6789' } },
  { type: 'data-tool-model-output', data: { toolCallId: 'call_1', modelOutput: { type: 'json', value: { name: 'Ada' } } } },
  { type: 'tool-output-error', toolCallId: 'call_1', errorText: 'lookup failed for 123-45-6789' },
  { type: 'tool-output-denied', toolCallId: 'call_1' },
  { type: 'finish', finishReason: 'stop' },
]

async function project(tool: Parameters<typeof createEventProjector>[0], view: 'display' | 'raw' | 'transcript', events = lifecycle) {
  const projector = createEventProjector(tool, view)
  const out: ToolEvent[] = []
  for (const event of events) {
    const projected = await projector(event)
    if (projected) out.push(projected)
  }
  return out
}

const plainTool = createTool({ id: 'lookup', description: 'x', execute: async () => ({}) })

const masking = {
  input: ({ input }: any) => ({ ssn: `***-**-${String(input.ssn).slice(-4)}` }),
  inputDelta: () => '…',
  output: ({ output }: any) => ({ name: output.name }),
  error: () => 'Lookup failed',
  approval: () => 'declined by reviewer',
  suspend: () => ({ question: 'Confirm the customer?' }),
  resume: ({ resumeData }: any) => ({ confirmed: resumeData.confirmed }),
}
const maskingTool = createTool({
  id: 'lookup',
  description: 'x',
  inputSchema: z.object({ ssn: z.string() }),
  transform: { display: masking, transcript: { ...masking, output: () => 'Found the customer' } },
  execute: async () => ({ name: 'Ada' }),
})

describe('createEventProjector — raw', () => {
  it('passes every event through unchanged, model output included', async () => {
    const out = await project(maskingTool, 'raw')
    expect(out).toEqual(lifecycle)
    expect(out[3]).toBe(lifecycle[3])
  })

  it('never calls a transform', async () => {
    const spy = vi.fn()
    const tool = createTool({ id: 't', description: 'x', transform: { display: { input: spy, output: spy } }, execute: async () => ({}) })
    await project(tool, 'raw')
    expect(spy).not.toHaveBeenCalled()
  })
})

describe('createEventProjector — display', () => {
  it('without transforms: payloads unchanged, data-tool-model-output dropped', async () => {
    const out = await project(plainTool, 'display')
    expect(out).toEqual(lifecycle.filter((event) => event.type !== 'data-tool-model-output'))
  })

  it('applies transform.display per phase: input, inputDelta, output, error, approval, suspend, resume', async () => {
    const out = await project(maskingTool, 'display')
    expect(out).toEqual([
      { type: 'start', messageMetadata: run },
      { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'lookup' },
      { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '…' },
      { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'lookup', input: { ssn: '***-**-6789' } },
      { type: 'tool-approval-request', approvalId: 'approval_1', toolCallId: 'call_1' },
      { type: 'tool-approval-response', approvalId: 'approval_1', approved: false, reason: 'declined by reviewer' },
      { type: 'data-tool-suspended', data: { ...run, suspendPayload: { question: 'Confirm the customer?' } } },
      { type: 'data-tool-resumed', data: { ...run, resumeData: { confirmed: true } } },
      { type: 'data-tool-log', data: { level: 'info', message: 'looked up', time: '2026-01-01T00:00:00.000Z' } },
      { type: 'data-tool-span', data: { spanId: 's1', name: 'db', phase: 'start' } },
      { type: 'tool-output-available', toolCallId: 'call_1', output: { name: 'Ada' } },
      { type: 'tool-output-error', toolCallId: 'call_1', errorText: 'Lookup failed' },
      { type: 'tool-output-denied', toolCallId: 'call_1' },
      { type: 'finish', finishReason: 'stop' },
    ])
    expect(JSON.stringify(out)).not.toContain('123-45')
    expect(JSON.stringify(out)).not.toContain('0000')
  })

  it('the transform gets its context: target, phase, tool name, call id, the input and the payload', async () => {
    const seen: any[] = []
    const record = (context: any) => (seen.push(context), 'x')
    const tool = createTool({ id: 'lookup', description: 'x', transform: { display: { input: record, output: record, error: record, suspend: record, resume: record } }, execute: async () => ({}) })
    await project(tool, 'display')
    const byPhase = Object.fromEntries(seen.map((context) => [context.phase, context]))
    expect(byPhase['input-available']).toMatchObject({ target: 'display', toolName: 'lookup', toolCallId: 'call_1', input: { ssn: '123-45-6789' } })
    expect(byPhase['output-available']).toMatchObject({ target: 'display', toolCallId: 'call_1', input: { ssn: '123-45-6789' }, output: { name: 'Ada', ssn: '123-45-6789' } })
    expect(byPhase.error).toMatchObject({ error: 'lookup failed for 123-45-6789' })
    expect(byPhase.suspend).toMatchObject({ toolCallId: 'call_1', suspendPayload: { question: 'Confirm 123-45-6789?' } })
    expect(byPhase.resume).toMatchObject({ resumeData: { confirmed: true, pin: '0000' } })
  })

  it.each([
    [
      'throws',
      () => {
        throw new Error('mask failed')
      },
    ],
    ['returns undefined', () => undefined],
  ])('a transform that %s yields { message: "Tool <phase> payload unavailable" }, never the raw value', async (_case, broken) => {
    const tool = createTool({
      id: 'lookup',
      description: 'x',
      transform: { display: { input: broken, output: broken, suspend: broken, resume: broken, error: broken, approval: broken } },
      execute: async () => ({}),
    })
    const out = await project(tool, 'display')
    const find = (type: string) => out.find((event) => event.type === type) as any
    expect(find('tool-input-available').input).toEqual({ message: 'Tool input payload unavailable' })
    expect(find('tool-output-available').output).toEqual({ message: 'Tool output payload unavailable' })
    expect(find('data-tool-suspended').data.suspendPayload).toEqual({ message: 'Tool suspend payload unavailable' })
    expect(find('data-tool-resumed').data.resumeData).toEqual({ message: 'Tool resume payload unavailable' })
    expect(find('tool-output-error').errorText).toBe('{"message":"Tool error payload unavailable"}')
    expect(find('tool-approval-response').reason).toBe('{"message":"Tool approval payload unavailable"}')
    expect(JSON.stringify(out.filter((event) => event.type !== 'tool-input-delta'))).not.toContain('123-45-6789')
  })

  it('drops deltas when input is transformed but inputDelta is not (raw deltas would spell out the input)', async () => {
    const tool = createTool({ id: 'lookup', description: 'x', transform: { display: { input: () => ({ ssn: 'hidden' }) } }, execute: async () => ({}) })
    const out = await project(tool, 'display')
    expect(out.some((event) => event.type === 'tool-input-delta')).toBe(false)
    expect(JSON.stringify(out)).not.toContain('"ssn\\":')
  })

  it.each([
    ['returns undefined', () => undefined],
    [
      'throws',
      () => {
        throw new Error('x')
      },
    ],
  ])('drops a delta whose inputDelta transform %s', async (_case, inputDelta) => {
    const tool = createTool({ id: 'lookup', description: 'x', transform: { display: { inputDelta } }, execute: async () => ({}) })
    expect((await project(tool, 'display')).some((event) => event.type === 'tool-input-delta')).toBe(false)
  })

  it('an inputDelta transform returning a non-string sends it as JSON text', async () => {
    const tool = createTool({ id: 'lookup', description: 'x', transform: { display: { inputDelta: ({ inputTextDelta }) => ({ length: inputTextDelta!.length }) } }, execute: async () => ({}) })
    const out = await project(tool, 'display')
    expect(out.find((event) => event.type === 'tool-input-delta')).toEqual({ type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '{"length":21}' })
  })

  it('passes deltas through when nothing about the input is transformed', async () => {
    const tool = createTool({ id: 'lookup', description: 'x', transform: { display: { output: () => 'done' } }, execute: async () => ({}) })
    expect(await project(tool, 'display')).toContainEqual(lifecycle[2])
  })

  it('a tool-input-error shows the transformed input and error', async () => {
    const error: ToolEvent = { type: 'tool-input-error', toolCallId: 'call_1', toolName: 'lookup', input: { ssn: 42 }, errorText: 'ssn: expected string, got 42' }
    expect(await project(maskingTool, 'display', [error])).toEqual([
      { type: 'tool-input-error', toolCallId: 'call_1', toolName: 'lookup', input: { ssn: '***-**-42' }, errorText: 'Lookup failed' },
    ])
  })

  it('a decline without a reason, or with no approval transform, passes as it is', async () => {
    const noReason: ToolEvent = { type: 'tool-approval-response', approvalId: 'a', approved: false }
    expect(await project(maskingTool, 'display', [noReason])).toEqual([noReason])
    expect(await project(plainTool, 'display', [lifecycle[5]!])).toEqual([lifecycle[5]])
  })

  it('async transforms are awaited', async () => {
    const tool = createTool({ id: 'lookup', description: 'x', transform: { display: { output: async () => ({ later: true }) } }, execute: async () => ({}) })
    expect((await project(tool, 'display')).find((event) => event.type === 'tool-output-available')).toMatchObject({ output: { later: true } })
  })

  it('a seed input reaches the output transform when the input events are not replayed', async () => {
    let seenInput: unknown
    const tool = createTool({ id: 'lookup', description: 'x', transform: { display: { output: ({ input }) => ((seenInput = input), 'x') } }, execute: async () => ({}) })
    const projector = createEventProjector(tool, 'display', { input: { ssn: 'seeded' } })
    await projector(lifecycle[10]!)
    expect(seenInput).toEqual({ ssn: 'seeded' })
  })
})

describe('createEventProjector — transcript', () => {
  it('applies transform.transcript, not transform.display, and drops model output', async () => {
    const out = await project(maskingTool, 'transcript')
    expect(out.find((event) => event.type === 'tool-output-available')).toEqual({ type: 'tool-output-available', toolCallId: 'call_1', output: 'Found the customer' })
    expect(out.find((event) => event.type === 'tool-input-available')).toMatchObject({ input: { ssn: '***-**-6789' } })
    expect(out.some((event) => event.type === 'data-tool-model-output')).toBe(false)
  })

  it('gets target "transcript" in its context', async () => {
    const targets: string[] = []
    const tool = createTool({ id: 'lookup', description: 'x', transform: { transcript: { output: ({ target }) => (targets.push(target), 'x') }, display: { output: ({ target }) => (targets.push(target), 'y') } }, execute: async () => ({}) })
    await project(tool, 'transcript')
    expect(targets).toEqual(['transcript'])
  })
})
