// Hand-made report assertions for the reporter tests (format, model), so both build them one way.
import type { ReportAssertion } from '../../src/report/model.js'

/**
 * A maker of passing `mean R@3` single assertions in test/a.test.ts, under the test named by `where`.
 * Each call takes the next `index` (from 1, counted per maker), so assertions made in order stay in
 * that canonical order; `over` replaces any field. A fresh `describe` array each time, as a literal would be.
 */
export function assertionMaker(where: Pick<ReportAssertion, 'describe' | 'test' | 'fullName'>): (over?: Partial<ReportAssertion>) => ReportAssertion {
  let index = 0
  return (over = {}) => {
    index += 1
    return {
      file: 'test/a.test.ts',
      describe: [...where.describe],
      test: where.test,
      fullName: where.fullName,
      testIndex: 0,
      index,
      matcher: 'toHaveRecallAtK',
      metric: 'mean R@3',
      value: 0.5,
      threshold: 0.4,
      comparator: '>=',
      pass: true,
      isNot: false,
      outcome: true,
      signature: 'R@k|k:3|version:0.1.0',
      ...over,
    }
  }
}
