// Runs under Vitest AND Jest (globals only). An async matcher called without `await` is recorded,
// and the runner entries' afterEach (checkPendingAssertions) fails the test that made it. These
// tests call the check themselves, inside the test, so the afterEach finds nothing left to flag.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { functionEmbedder } from '../../src/embeddings/function-embedder.js'
import { allMatchers } from '../../matchers/all.js'
import { awaitCheckEnabled, checkPendingAssertions, PendingAssertion, UnawaitedMatcherError } from '../../matchers/pending.js'

const letters = functionEmbedder((text: string) => ['a', 'b', 'c'].map((ch) => [...text].filter((c) => c === ch).length), {
  id: 'test|model:letters',
})
const options = { embedder: letters }
const soft = (expect as unknown as { soft?: typeof expect }).soft

/** The 1-based line of this file that holds `marker`. */
function lineOf(marker: string): number {
  const lines = readFileSync(join(process.cwd(), 'test', 'matchers', 'unawaited.test.ts'), 'utf8').split('\n')
  const i = lines.findIndex((l) => l.includes(marker) && !l.includes('lineOf('))
  if (i < 0) throw new Error(`no line with ${marker}`)
  return i + 1
}

async function checkError(): Promise<UnawaitedMatcherError> {
  try {
    await checkPendingAssertions()
  } catch (error) {
    return error as UnawaitedMatcherError
  }
  throw new Error('expected the check to fail')
}

describe('un-awaited async matchers', () => {
  it('is on: the setup file loaded a runner entry', () => {
    expect(awaitCheckEnabled()).toBe(true)
  })

  it('fails naming the matcher, file:line, and how to fix it, when the matcher would fail', async () => {
    void expect('ab').toBeSemanticallySimilarTo('cc', 0.9, options) // FORGOTTEN-FAILING
    const error = await checkError()
    expect(error).toBeInstanceOf(UnawaitedMatcherError)
    expect(error.message).toBe(
      `toBeSemanticallySimilarTo was not awaited (test/matchers/unawaited.test.ts:${lineOf('FORGOTTEN-FAILING')}:23): ` +
        'write `await expect(…).toBeSemanticallySimilarTo(…)`. An async matcher that is not awaited cannot fail the test.',
    )
    // the runner's code frame points at the call, not at the hook
    expect(error.stack?.split('\n')[1]).toContain(`unawaited.test.ts:${lineOf('FORGOTTEN-FAILING')}:23`)
  })

  it('fails when the matcher would pass, and lists every forgotten call', async () => {
    void expect('ab').toBeSemanticallySimilarTo('abb', 0.9, options) // FORGOTTEN-PASSING
    void expect('ab').not.toBeSemanticallySimilarTo('cc', 0.9, options) // FORGOTTEN-NOT
    const error = await checkError()
    expect(error.message).toContain('2 async matchers were not awaited:\n')
    expect(error.message).toContain(`  - toBeSemanticallySimilarTo was not awaited (test/matchers/unawaited.test.ts:${lineOf('FORGOTTEN-PASSING')}:`)
    expect(error.message).toContain(`  - toBeSemanticallySimilarTo was not awaited (test/matchers/unawaited.test.ts:${lineOf('FORGOTTEN-NOT')}:`)
  })

  it('waits for the forgotten verdict before failing, so it cannot land in another test', async () => {
    let settled = false
    const slow = functionEmbedder(
      async (text: string) => {
        await new Promise((resolve) => setTimeout(resolve, 30))
        settled = true
        return [text.length, 1]
      },
      { id: 'test|model:slow' },
    )
    void expect('ab').toBeSemanticallySimilarTo('cd', 0.9, { embedder: slow })
    await checkError()
    expect(settled).toBe(true)
  })

  it('hands out no native promise, so a forgotten rejection is no unhandled rejection', async () => {
    const returned: unknown = expect('ab').toBeSemanticallySimilarTo('cc', 0.9, options)
    expect(typeof (returned as PromiseLike<void>).then).toBe('function')
    expect(returned instanceof Promise).toBe(false)
    await checkError()
  })

  it('is quiet for await, .not, .rejects, Promise.all, .then/.catch and an async helper', async () => {
    await expect('ab').toBeSemanticallySimilarTo('abb', 0.9, options)
    await expect('ab').not.toBeSemanticallySimilarTo('cc', 0.9, options)
    await expect(expect('ab').toBeSemanticallySimilarTo('cc', 0.9, options)).rejects.toThrow('EmbedSim')
    await Promise.all([expect('ab').toBeSemanticallySimilarTo('abb', 0.9, options), expect('ab').toBeSemanticallySimilarTo('ab', 1, options)])
    let caught = false
    await expect('ab')
      .toBeSemanticallySimilarTo('cc', 0.9, options)
      .catch(() => {
        caught = true
      })
    expect(caught).toBe(true)
    const helper = async (): Promise<void> => expect('ab').toBeSemanticallySimilarTo('abb', 0.9, options)
    await helper()
    await expect(checkPendingAssertions()).resolves.toBeUndefined()
  })

  it('is quiet for .resolves and .rejects on the received value', async () => {
    await expect(Promise.resolve('ab')).resolves.toBeSemanticallySimilarTo('abb', 0.9, options)
    await expect(Promise.reject('ab')).rejects.toBeSemanticallySimilarTo('abb', 0.9, options)
    await expect(checkPendingAssertions()).resolves.toBeUndefined()
  })

  it('is quiet for a promise returned from the test', () => expect('ab').toBeSemanticallySimilarTo('abb', 0.9, options))

  it('is quiet for an awaited expect.soft (Vitest), and flags a forgotten one', async () => {
    if (soft === undefined) return
    await soft('ab').toBeSemanticallySimilarTo('abb', 0.9, options)
    await expect(checkPendingAssertions()).resolves.toBeUndefined()
    void soft('ab').toBeSemanticallySimilarTo('abb', 0.9, options) // FORGOTTEN-SOFT
    expect((await checkError()).message).toContain(`(test/matchers/unawaited.test.ts:${lineOf('FORGOTTEN-SOFT')}:`)
  })

  it('ignores asymmetric use and direct calls of the matcher functions', async () => {
    expect({ run: { retrieved: ['a'], relevant: ['a'] } }).toEqual({ run: expect.toHaveNdcgAtK(1, 1) })
    const asym = expect as unknown as { toBeSemanticallySimilarTo: (...args: unknown[]) => unknown }
    expect('ab').not.toEqual(asym.toBeSemanticallySimilarTo('abb', 0.9, options))
    // A call outside expect (no `promise` in the context) returns the plain promise, unrecorded.
    const direct = allMatchers.toBeSemanticallySimilarTo.call({ isNot: false } as never, 'ab', 'abb', 0.9, options)
    expect(direct instanceof Promise).toBe(true)
    await direct
    await expect(checkPendingAssertions()).resolves.toBeUndefined()
  })
})

describe('PendingAssertion', () => {
  it('settles like the promise it wraps, through then, catch and finally', async () => {
    const record = { name: 'x', site: new Error(), settled: Promise.resolve(), creating: false, awaited: false }
    const ok = new PendingAssertion(Promise.resolve(1), record)
    await expect(ok.then((v) => v + 1)).resolves.toBe(2)
    const bad = new PendingAssertion(Promise.reject(new Error('no')), record)
    await expect(bad.catch((e: Error) => e.message)).resolves.toBe('no')
    let ran = false
    await expect(
      Promise.resolve(
        bad.finally(() => {
          ran = true
        }),
      ),
    ).rejects.toThrow('no')
    expect(ran).toBe(true)
    expect(record.awaited).toBe(true)
    expect(Object.prototype.toString.call(ok)).toBe('[object Promise]')
  })
})
