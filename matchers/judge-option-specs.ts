/**
 * The declared options every judge matcher shares (the judge, repeat and trial gates, `empty`, and the
 * eval-set form's concurrency and failedCases), apart from judge.ts so that other judge families
 * (conversation.ts) declare the same options without them becoming exports of rag-matchers/matchers.
 */
import { MAX_REPEAT } from '../src/judge/index.js'
import { isPositiveInteger, oneOf, type OptionSpec } from './declare.js'
import { FAILED_CASES_OPTION } from './message.js'

/** The trial gates (judge-trials.ts); trials come from `repeat`, describeEvalSet, `configure({ trials })` or RAG_MATCHERS_TRIALS. */
const TRIAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  minPassRate: {
    type: 'a number 0–1',
    doc: 'With trials: pass when at least this share of the case × trial verdicts (score ≥ min) pass, instead of comparing the mean.',
  },
  maxFlipRate: {
    type: 'a number 0–1',
    doc: 'With 2 or more trials: fail, with or without `.not`, when more than this share of the cases changed verdict between trials.',
  },
}
export const JUDGE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  judge: {
    type: 'a Judge',
    default: 'configure({ judge })',
    doc: 'The judge, e.g. `ollamaJudge({ model })`; a judge without a cache of its own records to `__rag_judge_cache__/` next to the test file.',
  },
  repeat: {
    type: 'a positive integer ≤ 100',
    default: '1',
    doc: 'Self-consistency: run the metric `repeat` times with seeds `seed … seed+repeat−1`; more than 100 is refused.',
    check: (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= MAX_REPEAT,
  },
  passRate: { type: 'a number 0–1', doc: 'With `repeat`: pass when at least this share of the runs scores ≥ min, instead of comparing the mean.' },
  ...TRIAL_OPTIONS,
}
export const EMPTY: OptionSpec = {
  type: "'fail' | 'pass'",
  default: "'fail'",
  doc: "Nothing to judge (an empty text, or the judge extracts no item): `'fail'` fails the assertion, with or without `.not`, saying what is missing; `'pass'` accepts it as vacuously true (score 1).",
  check: oneOf('fail', 'pass'),
}
const { passRate: _passRate, ...SET_JUDGE_OPTIONS_BASE } = JUDGE_OPTIONS
/** The eval-set form's options: the judge options without passRate, with concurrency and failedCases. */
export const SET_JUDGE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  ...SET_JUDGE_OPTIONS_BASE,
  concurrency: { type: 'a positive integer', default: '4', doc: 'Eval sets only: how many cases are judged at once.', check: isPositiveInteger },
  failedCases: FAILED_CASES_OPTION,
}
