// Synthetic rag-reports for the history tests, stress test and bench: `sets` eval sets × `metrics` metric rows × `cases` cases.
import { buildReport, type RagReport, type ReportAssertion } from '../../src/report/model.js'

export interface ReportShape {
  readonly sets?: number
  readonly metrics?: number
  readonly cases?: number
  /** The value of case `i` in metric `m` of set `s`; default a deterministic value from the seed. */
  readonly value?: (s: number, m: number, i: number) => number
  readonly seed?: number
  readonly createdAt?: Date
  /** Metric index → 'lower' for lower-is-better metrics. */
  readonly lower?: readonly number[]
}

export function makeReport(shape: ReportShape = {}): RagReport {
  const sets = shape.sets ?? 2
  const metrics = shape.metrics ?? 2
  const cases = shape.cases ?? 3
  const seed = shape.seed ?? 1
  const value = shape.value ?? ((s: number, m: number, i: number) => ((s * 31 + m * 17 + i * 7 + seed * 13) % 100) / 100)
  const assertions: ReportAssertion[] = []
  for (let s = 0; s < sets; s++) {
    for (let m = 0; m < metrics; m++) {
      const perCase = Array.from({ length: cases }, (_, i) => ({ id: `q${i}`, value: value(s, m, i), pass: value(s, m, i) >= 0.2 }))
      const mean = perCase.reduce((a, c) => a + c.value, 0) / Math.max(1, cases)
      const pass = mean >= 0.2
      assertions.push({
        file: `test/set${s}.test.ts`,
        describe: [],
        test: `metric ${m}`,
        fullName: `metric ${m}`,
        testIndex: m,
        index: 0,
        matcher: 'toHaveRecallAtK',
        metric: `mean m${m}`,
        value: mean,
        threshold: 0.2,
        comparator: shape.lower?.includes(m) ? '<=' : '>=',
        pass,
        isNot: false,
        outcome: pass,
        signature: `m${m}|k:3|version:0.1.0`,
        scale: 1,
        set: `set${s}`,
        setSize: cases,
        perCase,
        ...(shape.lower?.includes(m) ? { direction: 'lower' as const } : {}),
        ...(m === 0
          ? { cases: perCase.map((c, i) => ({ id: c.id, question: `question ${i}?`, answer: `answer ${i} of run ${seed}`, retrieved: [`d${i}`, `d${(i + seed) % 10}`] })) }
          : {}),
      })
    }
  }
  return buildReport(assertions, { runner: 'vitest', createdAt: shape.createdAt ?? new Date(Date.UTC(2026, 0, 1, 0, 0, seed)) })
}
