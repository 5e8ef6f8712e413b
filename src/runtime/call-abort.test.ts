import { describe, expect, it } from 'vitest'
import { CallAbort, isAbortFailure } from './call-abort.ts'

const gone = () => new Error('The caller disconnected')

describe('CallAbort', () => {
  it('asks for the upstream signal only when its own signal is read', () => {
    let asked = 0
    const upstream = new AbortController()
    const abort = new CallAbort({ get signal() { return asked++, upstream.signal } }, gone)
    expect(asked).toBe(0)
    upstream.abort()
    expect(abort.aborted).toBe(false) // not followed yet: nobody read the signal
    expect(abort.signal.aborted).toBe(true) // read after the upstream aborted: aborted at once
    expect(abort.signal.reason).toEqual(gone())
    expect(asked).toBe(1)
  })

  it('follows the upstream signal once read, with the given reason', () => {
    const upstream = new AbortController()
    const abort = new CallAbort(upstream, gone)
    const signal = abort.signal
    expect(signal.aborted).toBe(false)
    upstream.abort(new Error('socket closed'))
    expect(signal.aborted).toBe(true)
    expect((signal.reason as Error).message).toBe('The caller disconnected')
  })

  it('stops following the upstream signal once released', () => {
    const upstream = new AbortController()
    const abort = new CallAbort(upstream, gone)
    const signal = abort.signal
    abort.release()
    upstream.abort()
    expect(signal.aborted).toBe(false)
    expect(abort.aborted).toBe(false)
  })

  it('an abort before the signal is read gives an aborted signal with that reason', () => {
    const abort = new CallAbort()
    const reason = new Error('stop')
    abort.abort(reason)
    abort.abort(new Error('later')) // the first reason stays
    expect(abort.signal.aborted).toBe(true)
    expect(abort.signal.reason).toBe(reason)
  })

  it('race settles with the work when nothing aborts', async () => {
    const abort = new CallAbort()
    await expect(abort.race(Promise.resolve(42))).resolves.toBe(42)
    await expect(abort.race(7)).resolves.toBe(7)
    await expect(abort.race(Promise.reject(new Error('boom')))).rejects.toThrow('boom')
  })

  it('race rejects with the abort failure as soon as the call aborts, though the work never ends', async () => {
    const abort = new CallAbort()
    const pending = abort.race(new Promise(() => {}))
    abort.abort(gone())
    const error = await pending.catch((caught: unknown) => caught)
    expect(isAbortFailure(error)).toBe(true)
    expect(error).toMatchObject({ code: 'EXECUTION_FAILED', message: 'The caller disconnected' })
    await expect(abort.race(Promise.resolve(1))).rejects.toMatchObject({ code: 'EXECUTION_FAILED' })
  })

  it('an abort without a reason fails with a generic message', async () => {
    const abort = new CallAbort()
    abort.abort(undefined)
    await expect(abort.race(Promise.resolve(1))).rejects.toMatchObject({ message: 'The call was aborted' })
  })
})
