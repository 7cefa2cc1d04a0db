import { compareRuns, signatureDifferenceText, type MetricRun } from '../../../src/eval-set/compare-runs.js'
import { MetricInputError } from '../../../src/errors.js'

const SIG = 'R|k:3|empty:zero|dup:first|version:0.1.0'

function run(values: Record<string, number>, signature = SIG, metric = 'recall@3'): MetricRun {
  return { metrics: { [metric]: { signature, values } } }
}

function series(n: number, f: (i: number) => number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${String(i).padStart(2, '0')}`, f(i)]))
}

describe('compareRuns', () => {
  it('computes means, delta, per-case deltas and the bootstrap p-value by hand on a tiny set', () => {
    // d = current − baseline per id in code-unit order a, b, c = [−1, −4, 2]: the hand-computed
    // bootstrap of statistics.test.ts (B = 4, seed 42) gives p = 0.4 and the interval [−1.925, −1].
    const r = compareRuns(run({ a: 5, b: 6, c: 1 }), run({ a: 4, b: 2, c: 3 }), { resamples: 4, tolerance: 0 })
    const m = r.metrics[0]!
    // p = 0.4 ≥ alpha: a drop beyond the tolerance (0) that is not significant
    expect(m.status).toBe('dropped (not significant)')
    expect(m.failed).toBe(false)
    // with 4 resamples the smallest attainable p is 1/5 = 0.2, not below 0.05: the comparison cannot fail
    expect(m.minAttainableP).toBe(0.2)
    expect(r.power).toEqual({ minAttainableP: 0.2, underpowered: true, metrics: ['recall@3'], casesNeeded: undefined })
    expect(r.failed).toBe(true)
    expect(m.baselineMean).toBe(4)
    expect(m.currentMean).toBe(3)
    expect(m.delta).toBe(-1)
    expect(m.pValue).toBe(0.4)
    expect(m.ci[0]).toBeCloseTo(-1.925, 12)
    expect(m.ci[1]).toBe(-1)
    expect(m.n).toBe(3)
    expect(m.perCase.map((c) => [c.id, c.delta])).toEqual([
      ['b', -4],
      ['a', -1],
      ['c', 2],
    ])
    expect(m.test).toBe('paired-bootstrap')
  })

  it('flags a synthetic significant drop', () => {
    const base = series(30, (i) => 0.8 + ((i % 5) - 2) * 0.02)
    const cur = series(30, (i) => 0.6 + ((i % 3) - 1) * 0.02)
    for (const test of ['bootstrap', 'permutation'] as const) {
      const r = compareRuns(run(base), run(cur), { test })
      const m = r.metrics[0]!
      expect(r.regressed).toEqual(['recall@3'])
      expect(m.regressed).toBe(true)
      expect(m.status).toBe('regressed')
      expect(m.delta).toBeCloseTo(-0.2, 10)
      expect(m.pValue).toBeLessThan(0.001)
      expect(m.ci[1]).toBeLessThan(0)
    }
  })

  it('passes a drop of the same mean that is indistinguishable from noise', () => {
    // deltas alternate −1.0 and +0.6: mean −0.2 like above, but a standard deviation of 0.8
    const base = series(20, (i) => (i % 2 === 0 ? 1 : 0.2))
    const cur = series(20, (i) => (i % 2 === 0 ? 0 : 0.8))
    for (const test of ['bootstrap', 'permutation'] as const) {
      const r = compareRuns(run(base), run(cur), { test })
      const m = r.metrics[0]!
      expect(m.delta).toBeCloseTo(-0.2, 10)
      expect(m.pValue).toBeGreaterThan(0.05)
      expect(m.regressed).toBe(false)
      expect(m.status).toBe('dropped (not significant)')
      expect(r.regressed).toEqual([])
      expect(r.failed).toBe(false)
      expect(compareRuns(run(base), run(cur), { test, failOnDrop: true }).failed).toBe(true)
    }
  })

  it('does not regress on a significant drop smaller than the tolerance', () => {
    const r = compareRuns(run(series(20, () => 0.9)), run(series(20, () => 0.89)))
    const m = r.metrics[0]!
    expect(m.pValue).toBeLessThan(0.001)
    expect(m.regressed).toBe(false)
    expect(m.status).toBe('dropped (within tolerance)')
    expect(compareRuns(run(series(20, () => 0.9)), run(series(20, () => 0.89)), { tolerance: 0.005 }).regressed).toEqual(['recall@3'])
  })

  it('reads the tolerance as a fraction of the full scale (BLEU and chrF are 0–100)', () => {
    const sig = 'BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:0.1.0'
    const drop = (d: number) =>
      compareRuns(
        run(
          series(20, () => 40),
          sig,
          'bleu',
        ),
        run(
          series(20, () => 40 - d),
          sig,
          'bleu',
        ),
      )
    expect(drop(1.5).metrics[0]!.tolerance).toBe(2)
    expect(drop(1.5).regressed).toEqual([])
    expect(drop(2.5).regressed).toEqual(['bleu'])
    // per-metric tolerances
    const r = compareRuns(
      run(
        series(20, () => 40),
        sig,
        'bleu',
      ),
      run(
        series(20, () => 37),
        sig,
        'bleu',
      ),
      { tolerance: { bleu: 0.05 } },
    )
    expect(r.metrics[0]!.tolerance).toBe(5)
    expect(r.regressed).toEqual([])
  })

  it('never regresses on an improvement', () => {
    const r = compareRuns(run(series(20, () => 0.5)), run(series(20, () => 0.9)))
    expect(r.metrics[0]!.pValue).toBe(1)
    expect(r.metrics[0]!.status).toBe('improved')
    expect(r.regressed).toEqual([])
    expect(compareRuns(run(series(20, () => 0.5)), run(series(20, () => 0.51))).metrics[0]!.status).toBe('ok')
  })

  it('refuses to compare a metric whose settings changed and names the keys, but not for another package version', () => {
    const r = compareRuns(run({ a: 1, b: 1 }, 'R|k:5|empty:zero|dup:first|version:0.1.0'), run({ a: 0, b: 0 }, 'R|k:3|empty:zero|dup:first|version:0.2.0'))
    const m = r.metrics[0]!
    expect(m.status).toBe('incomparable')
    expect(m.regressed).toBe(false)
    expect(m.failed).toBe(true)
    expect(Number.isNaN(m.pValue)).toBe(true)
    expect(r.incomparable).toEqual(['recall@3'])
    expect(m.signatureDifferences).toEqual([{ key: 'k', a: '5', b: '3' }])
    // the "every upgrade breaks every gate": 0.0.9 → 0.1.0 → a rev signature, same settings, compared
    const values = series(20, () => 1)
    for (const [a, b] of [
      ['R|k:3|empty:zero|dup:first|version:0.0.9', 'R|k:3|empty:zero|dup:first|version:0.1.0'],
      ['R|k:3|empty:zero|dup:first|version:0.1.0', 'R|k:3|empty:zero|dup:first|rev:1'],
    ]) {
      const same = compareRuns(run(values, a), run(values, b))
      expect([same.metrics[0]!.status, same.failed]).toEqual(['ok', false])
    }
    // a changed implementation revision is incomparable and named
    const revised = compareRuns(run(values, 'R|k:3|rev:1'), run(values, 'R|k:3|rev:2'))
    expect(revised.metrics[0]!.signatureDifferences).toEqual([{ key: 'rev', a: '1', b: '2' }])
  })

  it('lists the cases present in one run only, fails unless the ids are equal, and compares the shared ones', () => {
    const r = compareRuns(run({ a: 1, b: 1, old: 1 }), run({ a: 1, b: 1, fresh: 0 }))
    const m = r.metrics[0]!
    expect(m.n).toBe(2)
    expect(m.onlyInBaseline).toEqual(['old'])
    expect(m.onlyInCurrent).toEqual(['fresh'])
    expect(r.onlyInBaseline).toEqual(['old'])
    expect(r.onlyInCurrent).toEqual(['fresh'])
    expect(r.coverage).toEqual({ mode: 'equal', added: ['fresh'], removed: ['old'], compared: 2, ok: false })
    expect(r.failed).toBe(true)
    const shared = compareRuns(run({ a: 1, b: 1, old: 1 }), run({ a: 1, b: 1, fresh: 0 }), { cases: 'shared' })
    expect(shared.coverage).toEqual({ mode: 'shared', added: ['fresh'], removed: ['old'], compared: 2, ok: true })
    expect(shared.failed).toBe(false)
  })

  it('fails when no case is shared, in either coverage mode (the issue: q1…q10 against r1…r10 passed)', () => {
    const base = run(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`q${i + 1}`, 1])))
    const cur = run(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`r${i + 1}`, 0])))
    for (const cases of ['equal', 'shared'] as const) {
      const none = compareRuns(base, cur, { cases })
      expect(none.metrics[0]!.status).toBe('no-common-cases')
      expect(none.metrics[0]!.failed).toBe(true)
      expect(none.coverage.ok).toBe(false)
      expect(none.coverage.compared).toBe(0)
      expect(none.failed).toBe(true)
    }
  })

  it('knows when the sign-flip test cannot reach alpha (the issue: 3 cases dropping 1 → 0 passed)', () => {
    const three = compareRuns(run({ a: 1, b: 1, c: 1 }), run({ a: 0, b: 0, c: 0 }), { test: 'permutation' })
    const m = three.metrics[0]!
    expect(m.pValue).toBe(0.125)
    expect(m.minAttainableP).toBe(0.125)
    expect(m.status).toBe('dropped (not significant)')
    expect(three.power).toEqual({ minAttainableP: 0.125, underpowered: true, metrics: ['recall@3'], casesNeeded: 5 })
    expect(three.failed).toBe(true)
    // five cases can: 2^−5 = 0.03125 < 0.05
    const five = compareRuns(run(series(5, () => 1)), run(series(5, () => 0)), { test: 'permutation' })
    expect([five.metrics[0]!.pValue, five.metrics[0]!.status, five.power.underpowered]).toEqual([0.03125, 'regressed', false])
    // a tolerance-only gate chosen explicitly: no test, any drop beyond the tolerance regresses
    const gate = compareRuns(run({ a: 1, b: 1, c: 1 }), run({ a: 0, b: 0, c: 0 }), { test: 'none' })
    expect([gate.metrics[0]!.status, gate.metrics[0]!.test, Number.isNaN(gate.metrics[0]!.pValue), gate.power.underpowered, gate.failed]).toEqual([
      'regressed',
      'tolerance-only',
      true,
      false,
      true,
    ])
    expect(compareRuns(run({ a: 1, b: 1, c: 1 }), run({ a: 1, b: 0.99, c: 1 }), { test: 'none' }).failed).toBe(false)
  })

  it('honours a lower-is-better metric (higherIsBetter: false), from the options or the run', () => {
    const ter = (values: Record<string, number>, flag?: boolean): MetricRun => ({
      metrics: { ter: { signature: 'TER|rev:1', values, ...(flag === undefined ? {} : { higherIsBetter: flag }) } as never },
    })
    const up = compareRuns(ter(series(20, () => 30)), ter(series(20, () => 50)), { higherIsBetter: { ter: false } })
    const m = up.metrics[0]!
    expect([m.status, m.higherIsBetter, m.regressed]).toEqual(['regressed', false, true])
    expect(m.delta).toBeCloseTo(20, 12)
    expect(m.ci[0]).toBeGreaterThan(0)
    const down = compareRuns(
      ter(
        series(20, () => 50),
        false,
      ),
      ter(
        series(20, () => 30),
        false,
      ),
    )
    expect(down.metrics[0]!.status).toBe('improved')
    // TER is on sacrebleu's 0–100 scale (tolerance 2 points); worst case first: the largest increase
    const mixed = compareRuns(ter({ a: 50, b: 50 }), ter({ a: 90, b: 10 }), { higherIsBetter: { ter: false } })
    expect(mixed.metrics[0]!.perCase.map((c) => c.id)).toEqual(['a', 'b'])
  })

  it('reports metrics tracked by one run only', () => {
    const base: MetricRun = { metrics: { mrr: { signature: 'RR', values: { a: 1 } }, 'recall@3': { signature: SIG, values: { a: 1 } } } }
    const cur: MetricRun = { metrics: { 'recall@3': { signature: SIG, values: { a: 1 } }, bleu: { signature: 'BLEU', values: { a: 50 } } } }
    const r = compareRuns(base, cur)
    expect(r.metrics.map((m) => [m.metric, m.status])).toEqual([
      ['bleu', 'only-in-current'],
      ['mrr', 'only-in-baseline'],
      ['recall@3', 'ok'],
    ])
  })

  it('is deterministic for a given seed', () => {
    const base = series(25, (i) => ((i * 37) % 11) / 10)
    const cur = series(25, (i) => ((i * 53) % 13) / 12)
    expect(compareRuns(run(base), run(cur), { seed: 9 })).toEqual(compareRuns(run(base), run(cur), { seed: 9 }))
    expect(compareRuns(run(base), run(cur), { seed: 9, test: 'permutation' })).toEqual(compareRuns(run(base), run(cur), { seed: 9, test: 'permutation' }))
  })

  it('lists the cases that regressed on their own, worst first, beyond the tolerance only (issue #26)', () => {
    // 10 cases: q05 loses its hit (1 → 0), q01 drops by exactly the tolerance (0.02), q02 by a little more
    const base = series(10, () => 1)
    const cur = { ...base, q05: 0, q01: 0.98, q02: 0.97 }
    const m = compareRuns(run(base), run(cur)).metrics[0]!
    expect(m.status).toBe('dropped (not significant)')
    expect(m.regressedCases).toEqual([
      { id: 'q05', baseline: 1, current: 0, delta: -1 },
      { id: 'q02', baseline: 1, current: 0.97, delta: cur.q02 - 1 },
    ])
    expect([m.tooManyRegressedCases, m.failed]).toEqual([false, false])
    // tolerance 0: any drop
    expect(compareRuns(run(base), run(cur), { tolerance: 0 }).metrics[0]!.regressedCases.map((c) => c.id)).toEqual(['q05', 'q02', 'q01'])
    // a lower-is-better metric: a rise is the regression
    const lower = compareRuns(run(series(10, () => 0.2)), run({ ...series(10, () => 0.2), q03: 0.6, q04: 0.1 }), { higherIsBetter: { 'recall@3': false } }).metrics[0]!
    expect(lower.regressedCases.map((c) => [c.id, c.delta])).toEqual([['q03', 0.6 - 0.2]])
    // on the 0–100 scale the tolerance is 2 points
    const bleu = compareRuns(run({ a: 50, b: 50 }, 'BLEU|rev:1', 'bleu'), run({ a: 48.5, b: 47 }, 'BLEU|rev:1', 'bleu'), { test: 'none' }).metrics[0]!
    expect(bleu.regressedCases.map((c) => c.id)).toEqual(['b'])
    // nothing regressed, nothing listed
    expect(compareRuns(run(base), run(base)).metrics[0]!.regressedCases).toEqual([])
  })

  it('fails a metric with more regressed cases than maxRegressedCases, whatever its mean did (issue #26)', () => {
    const base = series(10, (i) => (i < 3 ? 0 : 1))
    // the mean improves (0.7 → 0.9) but q04 lost its hit
    const cur = { ...series(10, () => 1), q04: 0 }
    const loose = compareRuns(run(base), run(cur))
    expect([loose.metrics[0]!.status, loose.failed, loose.options.maxRegressedCases]).toEqual(['improved', false, undefined])
    expect(loose.options).not.toHaveProperty('maxRegressedCases')
    const strict = compareRuns(run(base), run(cur), { maxRegressedCases: 0 })
    expect([strict.metrics[0]!.status, strict.metrics[0]!.tooManyRegressedCases, strict.metrics[0]!.failed, strict.failed]).toEqual(['improved', true, true, true])
    expect(strict.regressed).toEqual([])
    expect(strict.options.maxRegressedCases).toBe(0)
    expect(compareRuns(run(base), run(cur), { maxRegressedCases: 1 }).failed).toBe(false)
    for (const bad of [-1, 0.5, '1', null]) {
      expect(() => compareRuns(run(base), run(cur), { maxRegressedCases: bad as never })).toThrow('Expected `options.maxRegressedCases` to be an integer ≥ 0')
    }
  })

  it('validates its arguments', () => {
    expect(() => compareRuns({} as MetricRun, run({}))).toThrow(MetricInputError)
    expect(() => compareRuns(run({ a: Number.NaN }), run({}))).toThrow('Expected `baseline.metrics["recall@3"].values["a"]` to be a finite number')
    expect(() => compareRuns(run({}), run({}), { alpha: 0 })).toThrow('Expected `options.alpha` to be a number strictly between 0 and 1')
    expect(() => compareRuns(run({}), run({}), { test: 'wilcoxon' as never })).toThrow("Expected `options.test` to be 'bootstrap', 'permutation' or 'none'")
    expect(() => compareRuns(run({}), run({}), { cases: 'all' as never })).toThrow("Expected `options.cases` to be 'equal' or 'shared'")
    expect(() => compareRuns(run({ a: 1 }), run({ a: 1 }), { tolerance: -1 })).toThrow('Expected `options.tolerance` to be a finite number ≥ 0')
  })
})

describe('signatureDifferenceText (issue #26 item 5)', () => {
  it('says which keys differ, old → new', () => {
    expect(signatureDifferenceText([{ key: 'order', a: 'given', b: 'score' }])).toBe('order:given → order:score')
    expect(
      signatureDifferenceText([
        { key: 'gain', a: 'linear', b: 'exponential' },
        { key: 'tok', a: undefined, b: 'intl' },
      ]),
    ).toBe('gain:linear → gain:exponential, tok (absent) → tok:intl')
    expect(signatureDifferenceText([{ key: 'name', a: 'BLEU', b: 'chrF2' }])).toBe('BLEU → chrF2')
  })
})
