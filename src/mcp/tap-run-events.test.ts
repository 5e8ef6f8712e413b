import { describe, expect, it } from 'vitest'
import type { RunHost } from '../runs/run-host.ts'
import { tapRunEvents } from './tap-run-events.ts'

const refused = () => Promise.reject(new Error('not in this test'))

/** A run host written as a class, as an app's own may be: its methods live on the prototype. */
class ClassHost implements RunHost {
  open = refused
  approve = refused
  decline = refused
  resume = refused
  cancel = refused
  get = refused
  follow = refused
  async answer(runId: string): Promise<string[]> {
    return [`answered ${runId}`]
  }
  async list(): Promise<{ runs: [] }> {
    return { runs: [] }
  }
}

describe('tapRunEvents', () => {
  it("keeps a class host's optional methods (answer, list), which a spread of the host would drop", async () => {
    const tapped = tapRunEvents(new ClassHost(), () => {})
    expect(await tapped.answer?.('r1', { principal: null, answers: {} })).toEqual(['answered r1'])
    expect(await tapped.list?.({ principal: null })).toEqual({ runs: [] })
  })

  it('adds no optional method the host does not have', () => {
    const { answer: _answer, list: _list, ...plain } = new ClassHost()
    const tapped = tapRunEvents({ ...plain } as RunHost, () => {})
    expect('answer' in tapped || 'list' in tapped).toBe(false)
  })
})
