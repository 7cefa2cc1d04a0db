/**
 * The option types of the judge matchers, apart from the matchers so that the matcher module and its
 * helpers (judge-shared, judge-set, judge-set-forms) all import them without an import cycle.
 */
import type { ContextInput, EmptyPolicy, Judge } from '../src/judge/index.js'

/** Options of every eval-set form of a judge matcher. */
export interface JudgeSetOptions {
  /** Cases judged at once. @default 4 */
  concurrency?: number
  /** What a case whose pipeline failed (`error` set) does: see the retrieval and generation set matchers. @default 'fail' */
  failedCases?: 'fail' | 'zero' | 'skip'
}

/** Options every judge matcher takes. */
export interface JudgeMatcherOptions {
  /**
   * The judge. Defaults to `configure({ judge })`. A judge without a cache of its own records to
   * `configure({ judgeCacheDir })`, default `__rag_judge_cache__/` next to the test file (commit it; give
   * the judge an explicit `judgeCache({ dir, mode })` to choose another folder or mode, e.g. `replay` in CI).
   */
  judge?: Judge
  /**
   * Self-consistency: run the metric `repeat` times with seeds `seed … seed+repeat-1`. An integer from 1
   * to 100; a larger one is a Matcher error, not a run. @default 1
   */
  repeat?: number
  /**
   * With `repeat`: pass when at least this share of the runs (0–1) scores ≥ `min`, instead of
   * comparing the mean with `min`.
   */
  passRate?: number
  /**
   * With trials (`repeat`, `configure({ trials })`, `RAG_MATCHERS_TRIALS`, describeEvalSet's `trials`): pass
   * when at least this share (0–1) of the case × trial verdicts (score ≥ min) pass, instead of comparing the mean.
   */
  minPassRate?: number
  /**
   * With two or more trials: when more than this share (0–1) of the cases changed verdict between trials,
   * the judge cannot be trusted and the assertion FAILS, with or without `.not`.
   */
  maxFlipRate?: number
}

/** For metrics over a list the judge extracts (claims, key points, statements), which may come back empty. */
export interface EmptyMatcherOptions {
  /**
   * Nothing to judge (an empty answer, or the judge finds no claim / key point / statement):
   * `'fail'` (default) fails the assertion, with or without `.not`, saying what is missing;
   * `'pass'` accepts it as vacuously true (score 1), so the positive form passes and `.not` fails.
   * @default 'fail'
   */
  empty?: 'fail' | 'pass'
}

export interface RelevanceMatcherOptions extends JudgeMatcherOptions, EmptyMatcherOptions {}

export interface CompleteMatcherOptions extends QuestionMatcherOptions, EmptyMatcherOptions {}

export interface ContextRecallMatcherOptions extends JudgeMatcherOptions, EmptyMatcherOptions {}

export interface GroundedMatcherOptions extends JudgeMatcherOptions, EmptyMatcherOptions {
  /** An answer without claims: `'vacuous'` (default) scores 1, `'nan'` makes the assertion fail as not computable. */
  onEmpty?: EmptyPolicy
}

export interface QuestionMatcherOptions extends JudgeMatcherOptions {
  /** The user's question, shown to the judge. */
  question?: string
}

export interface RubricMatcherOptions extends JudgeMatcherOptions {
  question?: string
  contexts?: readonly ContextInput[]
  reference?: string
}

export interface PreferenceMatcherOptions extends JudgeMatcherOptions {
  /** The question both answers respond to. */
  question: string
  /** What "better" means, shown to the judge. */
  criteria?: string
}

/** Options of the eval-set forms: the judge options without `passRate` (the assertion is on the mean), plus `concurrency` and `failedCases`. */
export type JudgeSetMatcherOptions = Omit<JudgeMatcherOptions, 'passRate'> & JudgeSetOptions
export type RelevanceSetMatcherOptions = Omit<RelevanceMatcherOptions, 'passRate'> & JudgeSetOptions
export type GroundedSetMatcherOptions = Omit<GroundedMatcherOptions, 'passRate'> & JudgeSetOptions
export type ContextRecallSetMatcherOptions = Omit<ContextRecallMatcherOptions, 'passRate'> & JudgeSetOptions
/** Each case's question goes to the judge when it has one. */
export type UtilizeSetMatcherOptions = JudgeSetMatcherOptions
export type CompleteSetMatcherOptions = Omit<CompleteMatcherOptions, 'passRate' | 'question'> &
  JudgeSetOptions & {
    /** Where each case's key points come from. @default its `reference` when it has one, else its contexts */
    source?: 'reference' | 'contexts'
  }
/** Each case's question, contexts and reference go to the judge when it has them. */
export type RubricSetMatcherOptions = JudgeSetMatcherOptions
