import { isCiEnvironment, runEvalSet, type EvalProgress, type PipelineContext } from '../../../src/eval-set/run-eval-set.js'
import { MetricInputError } from '../../../src/errors.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `q${i}`, question: `question ${i}?`, relevant: [`d${i}`] }))

function fakeStream(isTTY: boolean) {
  const chunks: string[] = []
  return { isTTY, write: (text: string) => chunks.push(text), chunks }
}

function withCi<T>(value: string | undefined, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.CI
  if (value === undefined) delete process.env.CI
  else process.env.CI = value
  return fn().finally(() => {
    if (saved === undefined) delete process.env.CI
    else process.env.CI = saved
  })
}

describe('runEvalSet', () => {
  it('runs every item once, merges the output into the item and keeps dataset order', async () => {
    const calls: string[] = []
    const run = await runEvalSet(
      items(5),
      async (question, item) => {
        calls.push(item.id)
        // later items finish first, so completion order differs from dataset order
        await sleep(5 * (5 - Number(item.id.slice(1))))
        return { retrieved: [`d${item.id.slice(1)}`, 'x'], answer: `answer to ${question}`, contexts: ['c'], id: 'ignored', extra: 1 }
      },
      { progress: 'off' },
    )
    expect(calls.sort()).toEqual(['q0', 'q1', 'q2', 'q3', 'q4'])
    expect(run.cases.map((c) => c.id)).toEqual(['q0', 'q1', 'q2', 'q3', 'q4'])
    expect(run.cases[2]).toMatchObject({
      id: 'q2',
      question: 'question 2?',
      relevant: ['d2'],
      retrieved: ['d2', 'x'],
      answer: 'answer to question 2?',
      contexts: ['c'],
      extra: 1,
    })
    expect(run.cases[2]!.timing.ms).toBeGreaterThan(0)
    expect(run.errors).toBe(0)
    expect(run.cases.every((c) => c.error === undefined)).toBe(true)
    expect(Number.isNaN(Date.parse(run.startedAt))).toBe(false)
    expect(run.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('never has more than `concurrency` calls in flight', async () => {
    for (const concurrency of [1, 3, 4]) {
      let inFlight = 0
      let max = 0
      await runEvalSet(
        items(17),
        async () => {
          inFlight++
          max = Math.max(max, inFlight)
          await sleep(3)
          inFlight--
          return { answer: 'a' }
        },
        { concurrency, progress: 'off' },
      )
      expect([concurrency, max]).toEqual([concurrency, concurrency])
    }
  })

  it('records thrown errors, rejections, bad outputs and timeouts on the case, never dropping it', async () => {
    const signals: AbortSignal[] = []
    const run = await runEvalSet(
      items(6),
      (question, item, context: PipelineContext) => {
        signals[context.index] = context.signal
        switch (item.id) {
          case 'q0':
            return { answer: 'fine' }
          case 'q1':
            throw new TypeError('sync boom')
          case 'q2':
            return Promise.reject(new RangeError('async boom'))
          case 'q3':
            return new Promise(() => undefined) // never settles
          case 'q4':
            return 'not an object' as never
          default:
            // eslint-disable-next-line @typescript-eslint/only-throw-error
            throw 'a bare string'
        }
      },
      { timeoutMs: 40, progress: 'off' },
    )
    expect(run.cases).toHaveLength(6)
    expect(run.errors).toBe(5)
    expect(run.cases.map((c) => c.error)).toEqual([
      undefined,
      { name: 'TypeError', message: 'sync boom' },
      { name: 'RangeError', message: 'async boom' },
      { name: 'TimeoutError', message: 'the pipeline did not finish case "q3" within 40 ms (runEvalSet options.timeoutMs)' },
      { name: 'MetricInputError', message: 'pipeline: Expected `the return value` to be an object `{ retrieved?, answer?, contexts? }`, got `"not an object"` (string)' },
      { name: 'Error', message: 'a bare string' },
    ])
    expect(run.cases[0]!.answer).toBe('fine')
    expect(run.cases[3]!.timing.ms).toBeGreaterThanOrEqual(30)
    expect(signals[3]!.aborted).toBe(true)
    expect(signals[0]!.aborted).toBe(false)
  })

  it('frees the slot of a timed-out case so the rest of the set still runs', async () => {
    const started = Date.now()
    const run = await runEvalSet(
      items(4),
      async (_q, item) => {
        if (item.id === 'q0') await new Promise(() => undefined)
        return { answer: 'ok' }
      },
      { concurrency: 1, timeoutMs: 30, progress: 'off' },
    )
    expect(run.cases.map((c) => c.error?.name ?? c.answer)).toEqual(['TimeoutError', 'ok', 'ok', 'ok'])
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('accepts a sync pipeline and items without ids', async () => {
    const run = await runEvalSet([{ question: 'a?' }, { question: 'b?' }], (q) => ({ answer: q.toUpperCase() }), { progress: 'off' })
    expect(run.cases.map((c) => [c.id, c.answer])).toEqual([
      [undefined, 'A?'],
      [undefined, 'B?'],
    ])
  })

  it('reports progress to onProgress after each case, with an ETA', async () => {
    const seen: EvalProgress[] = []
    await runEvalSet(items(3), (q) => (q.includes('1') ? Promise.reject(new Error('x')) : { answer: 'a' }), {
      concurrency: 1,
      onProgress: (p) => seen.push(p),
      progress: 'off',
    })
    expect(seen.map((p) => [p.done, p.total, p.failed, p.id])).toEqual([
      [1, 3, 0, 'q0'],
      [2, 3, 1, 'q1'],
      [3, 3, 1, 'q2'],
    ])
    expect(seen[2]!.etaMs).toBe(0)
    for (const p of seen) expect(p.elapsedMs).toBeGreaterThanOrEqual(0)
  })

  it('prints a progress line on a TTY outside CI, and nothing in CI, off a TTY or with progress off', async () => {
    const tty = fakeStream(true)
    await withCi(undefined, () => runEvalSet(items(3), () => ({ answer: 'a' }), { stream: tty }))
    const last = tty.chunks.at(-1)!
    // eslint-disable-next-line no-control-regex
    expect(last).toMatch(/^\rrag-matchers eval set: 3\/3 \(100%\), elapsed \d+\.\ds, ETA 0\.0s\u001b\[K\n$/)
    for (const [ci, stream, progress] of [
      ['true', fakeStream(true), 'auto'],
      ['1', fakeStream(true), 'auto'],
      [undefined, fakeStream(false), 'auto'],
      [undefined, fakeStream(true), 'off'],
    ] as const) {
      await withCi(ci, () => runEvalSet(items(2), () => ({ answer: 'a' }), { stream, progress }))
      expect(stream.chunks).toEqual([])
    }
    const forced = fakeStream(false)
    await withCi('true', () => runEvalSet(items(2), () => Promise.reject(new Error('x')), { stream: forced, progress: 'on' }))
    expect(forced.chunks.at(-1)).toContain('2/2 (100%), 2 failed')
  })

  it('validates its arguments', async () => {
    await expect(runEvalSet([], () => ({}))).rejects.toThrow('runEvalSet: Expected `dataset` to be a non-empty array')
    await expect(runEvalSet([{ id: 'a' } as never], () => ({}))).rejects.toThrow('Expected `dataset[0].question` to be a string')
    await expect(runEvalSet(items(1), 'nope' as never)).rejects.toThrow('Expected `pipeline` to be a function')
    await expect(runEvalSet(items(1), () => ({}), { concurrency: 0 })).rejects.toThrow(MetricInputError)
    await expect(runEvalSet(items(1), () => ({}), { timeoutMs: -1 })).rejects.toThrow('Expected `options.timeoutMs`')
    await expect(runEvalSet(items(1), () => ({}), { progress: 'yes' as never })).rejects.toThrow("Expected `options.progress` to be 'auto', 'on' or 'off'")
  })
})

describe('isCiEnvironment', () => {
  it('treats CI as set unless empty, 0 or false', () => {
    expect(isCiEnvironment({})).toBe(false)
    expect(isCiEnvironment({ CI: '' })).toBe(false)
    expect(isCiEnvironment({ CI: '0' })).toBe(false)
    expect(isCiEnvironment({ CI: 'False' })).toBe(false)
    expect(isCiEnvironment({ CI: 'true' })).toBe(true)
    expect(isCiEnvironment({ CI: '1' })).toBe(true)
  })
})

describe('runEvalSet retries', () => {
  it('calls once per case by default (retries: 0) and records attempts: 1, failed or not', async () => {
    let calls = 0
    const run = await runEvalSet(
      items(3),
      (_q, item) => {
        calls++
        if (item.id === 'q1') throw new Error('down')
        return { retrieved: ['d0'] }
      },
      { progress: 'off' },
    )
    expect(calls).toBe(3)
    expect(run.cases.map((c) => c.attempts)).toEqual([1, 1, 1])
    expect(run.errors).toBe(1)
  })

  it('reports progress once per case, after its last attempt', async () => {
    const seen: EvalProgress[] = []
    let calls = 0
    await runEvalSet(
      items(1),
      () => {
        if (++calls < 3) throw new Error('flaky')
        return {}
      },
      { retries: 3, retryDelayMs: 0, progress: 'off', onProgress: (p) => seen.push(p) },
    )
    expect(calls).toBe(3)
    expect(seen.map((p) => [p.done, p.failed])).toEqual([[1, 0]])
  })

  it('refuses retries that are not an integer ≥ 0 and a negative retryDelayMs', async () => {
    await expect(runEvalSet(items(1), () => ({}), { retries: -1 })).rejects.toThrow(MetricInputError)
    await expect(runEvalSet(items(1), () => ({}), { retries: Number.POSITIVE_INFINITY })).rejects.toThrow('Expected `options.retries` to be an integer ≥ 0')
    await expect(runEvalSet(items(1), () => ({}), { retryDelayMs: Number.POSITIVE_INFINITY })).rejects.toThrow('Expected `options.retryDelayMs`')
  })
})
