// A rag-report with the shapes a real run has, for the history tests: failing and null cases, a `.not` row, a set
// asserted twice, a row over a subset of the cases, positional cases (no ids), a set-level row, judge usage.
import { buildReport, type RagReport, type ReportAssertion } from '../../src/report/model.js'

interface SetSpec {
  readonly set: string
  readonly metric: string
  readonly ids: readonly string[]
  readonly values: ReadonlyArray<number | null>
  readonly threshold?: number
  readonly testIndex?: number
  readonly isNot?: boolean
  readonly positional?: boolean
  readonly texts?: boolean
  readonly usage?: boolean
}

function assertion(spec: SetSpec): ReportAssertion {
  const threshold = spec.threshold ?? 0.5
  const perCase = spec.ids.map((id, i) => {
    const value = spec.values[i] ?? null
    return { id, value, ...(value === null ? {} : { pass: value >= threshold }), ...(spec.positional ? { positional: true } : {}) }
  })
  const finite = perCase.map((c) => c.value).filter((v): v is number => v !== null)
  const value = finite.length === perCase.length ? finite.reduce((a, b) => a + b, 0) / Math.max(1, finite.length) : null
  const pass = value !== null && value >= threshold
  return {
    file: `test/${spec.set}.test.ts`,
    describe: [],
    test: `t${spec.testIndex ?? 0}`,
    fullName: `t${spec.testIndex ?? 0}`,
    testIndex: spec.testIndex ?? 0,
    index: 0,
    matcher: 'toHaveRecallAtK',
    metric: spec.metric,
    value,
    threshold,
    comparator: '>=',
    pass,
    isNot: spec.isNot ?? false,
    outcome: (spec.isNot ?? false) ? !pass : pass,
    signature: `${spec.metric}|k:3|version:0.1.0`,
    scale: 1,
    set: spec.set,
    setSize: spec.ids.length,
    perCase,
    ...(spec.texts === false
      ? {}
      : {
          cases: spec.ids.map((id, i) => ({
            id,
            ...(spec.positional ? {} : { question: `question ${id}?` }),
            answer: `answer ${i}`,
            ...(spec.positional ? { positional: true } : {}),
          })),
        }),
    ...(spec.usage ? { extra: { usage: { promptTokens: 10, completionTokens: 2, calls: 1 } } } : {}),
  } as ReportAssertion
}

export function variedReport(createdAt = new Date('2026-02-03T04:05:06.000Z')): RagReport {
  const ids = ['q1', 'q2', 'q3', 'q4']
  return buildReport(
    [
      assertion({ set: 'qa', metric: 'mean recall@3', ids, values: [1, 0.25, null, 0.75], usage: true }),
      assertion({ set: 'qa', metric: 'mean mrr', ids, values: [0.5, 0, 1, 1], testIndex: 1, texts: false }),
      assertion({ set: 'qa', metric: 'mean hallucination', ids, values: [0.9, 0.1, 0.2, 0.3], isNot: true, testIndex: 2, texts: false }),
      // the same metric on part of the set again, and on a case of its own: one row with the union
      assertion({ set: 'qa', metric: 'mean mrr', ids: ['q4', 'q5'], values: [1, 0.1], testIndex: 3 }),
      // a metric on a subset, in another order: its ids are stored with it
      assertion({ set: 'qa', metric: 'mean ndcg', ids: ['q3', 'q1'], values: [0.3, 0.9], testIndex: 4, texts: false }),
      assertion({ set: 'anonymous', metric: 'mean bleu', ids: ['#1', '#2', '#3'], values: [0.1, 0.6, 0.7], positional: true }),
      {
        file: 'test/corpus.test.ts',
        describe: [],
        test: 'corpus',
        fullName: 'corpus',
        testIndex: 0,
        index: 0,
        matcher: 'toHaveCorpusBleu',
        metric: 'corpus BLEU',
        value: 31.5,
        threshold: 30,
        comparator: '>=',
        pass: true,
        isNot: false,
        outcome: true,
        signature: 'bleu|version:0.1.0',
        scale: 100,
        set: 'corpus',
        setSize: 120,
      },
    ],
    { runner: 'vitest', createdAt },
  )
}
