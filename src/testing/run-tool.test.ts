// runTool over the example tools: every phase of a call without a server. This file runs in the
// node project and, unchanged, in the workers project (workerd).
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'
import { bookFlight } from '../../tools/book-flight.ts'
import { deleteFile } from '../../tools/delete-file.ts'
import { generateReport } from '../../tools/generate-report.ts'
import { lookupCustomer } from '../../tools/lookup-customer.ts'
import { weatherTool } from '../../tools/weather-tool.ts'
import { runTool } from './run-tool.ts'

const typesOf = (events: { type: string }[]) => events.map((event) => event.type)

describe('runTool', () => {
  it('a plain tool: completed with its output, and the raw events of the call', async () => {
    const result = await runTool(weatherTool, { location: 'Lisbon' })
    expect(result).toMatchObject({ status: 'completed', output: { location: 'Lisbon' } })
    expect(typesOf(result.events)).toEqual(['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'data-tool-model-output', 'finish'])
  })

  it('bad input: INPUT_VALIDATION_FAILED with its issues, and execute never runs', async () => {
    let ran = false
    const tool = createTool({ id: 'count', description: 'x', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => ((ran = true), { n }) })
    const result = await runTool(tool, { n: 'one' } as never)
    expect(result).toMatchObject({ status: 'failed', error: { code: 'INPUT_VALIDATION_FAILED', issues: [{ path: ['n'] }] } })
    expect(result.output).toBeUndefined()
    expect(ran).toBe(false)
    expect(typesOf(result.events).slice(-2)).toEqual(['tool-input-error', 'finish'])
  })

  it('approval: declined by default, approved with approve: true', async () => {
    const declined = await runTool(deleteFile, { path: 'a.txt' })
    expect(declined).toMatchObject({ status: 'declined' })
    expect(typesOf(declined.events)).toContain('tool-output-denied')
    const approved = await runTool(deleteFile, { path: 'a.txt' }, { approve: true })
    expect(approved).toMatchObject({ status: 'completed', output: { deleted: 'a.txt' } })
    expect(typesOf(approved.events)).toEqual(expect.arrayContaining(['tool-approval-request', 'tool-approval-response', 'tool-output-available']))
  })

  it('suspend: suspended without resumeData; resumed with it; refused resume data leaves it suspended', async () => {
    const waiting = await runTool(bookFlight, { from: 'LIS', to: 'SFO' })
    expect(waiting).toMatchObject({ status: 'suspended', suspendPayload: { seats: ['12A', '12B', '14C'] } })
    const booked = await runTool(bookFlight, { from: 'LIS', to: 'SFO' }, { resumeData: { seat: '12A' } })
    expect(booked).toMatchObject({ status: 'completed', output: { confirmation: 'LIS-SFO-12A', seat: '12A' } })
    expect(typesOf(booked.events)).toEqual(expect.arrayContaining(['data-tool-suspended', 'data-tool-resumed', 'tool-output-available']))
    const refused = await runTool(bookFlight, { from: 'LIS', to: 'SFO' }, { resumeData: { seat: 'aisle' } })
    expect(refused).toMatchObject({ status: 'suspended', error: { code: 'RESUME_VALIDATION_FAILED' } })
  })

  it('request context: validated by the tool schema, and what execute reads', async () => {
    expect(await runTool(lookupCustomer, { email: 'ada@example.com' })).toMatchObject({ status: 'failed', error: { code: 'REQUEST_CONTEXT_VALIDATION_FAILED' } })
    const result = await runTool(lookupCustomer, { email: 'ada@example.com' }, { requestContext: { tenantId: 't1' } })
    expect(result).toMatchObject({ status: 'completed', output: { id: 'cus_t1_42' } })
  })

  it('background: the attempts run in memory until the run settles', async () => {
    const result = await runTool(generateReport, { month: '2026-01', delayMs: 0 })
    expect(result).toMatchObject({ status: 'completed', output: { month: '2026-01', rows: 31 } })
    expect(result.events.find((event) => event.type === 'data-tool-log')).toMatchObject({ data: { message: 'report started' } })
    expect(typesOf(result.events).at(-1)).toBe('finish')
  })

  it('a tool that throws: failed with EXECUTION_FAILED and its message', async () => {
    const tool = createTool({ id: 'boom', description: 'x', inputSchema: z.object({}), execute: async () => { throw new Error('no luck') } })
    expect(await runTool(tool, {})).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'no luck' } })
  })
})
