// A run history for the UI tests, built from real runs of a small suite: the real matchers score the
// cases, their results go through the reporter's record → report pipeline, and each report is appended
// to a temporary SQLite store with the git facts a reporter would record. Ids, answers, set names and
// failure reasons carry markup, `javascript:` URLs, Markdown and very long strings.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toMatchMetricBaseline } from '../../matchers/baseline.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import { baselinePathFor } from '../../src/eval-set/baseline-file.js'
import * as generation from '../../matchers/generation.js'
import * as retrieval from '../../matchers/retrieval.js'
import { toErrorRecord, toRecord } from '../../matchers/record.js'
import { HistoryStore, type HistoryTarget } from '../../src/history/public.js'
import { buildReport, fromRecord, type RagReport, type ReportAssertion } from '../../src/report/model.js'

export const SCRIPT = '<script>window.__pwned=1</script>'
export const CLOSE = '</script><script>window.__pwned=2</script>'
export const ATTR = '"><img src=x onerror="window.__pwned=3">'
export const JS_URL = 'javascript:window.__pwned=4'
export const MARKDOWN = '**bold** [click](javascript:window.__pwned=5) `code`'
export const LONG = `long ${'x'.repeat(6000)} end`
/** The case the feature-branch run makes regress: its retriever loses the relevant passage. */
export const REGRESSING = `q-regress ${SCRIPT}`
/** The hostile eval set name. */
export const HOSTILE_SET = `answers ${CLOSE}`

export interface FixtureCase {
  id: string
  question: string
  answer: string
  reference: string
  retrieved: string[]
  relevant: string[]
}

function cases(regressed: boolean, answerTweak: string): FixtureCase[] {
  return [
    {
      id: 'q1',
      question: 'How long does the battery last?',
      answer: `About ten hours.${answerTweak}`,
      reference: 'The battery lasts ten hours.',
      retrieved: ['battery', 'display'],
      relevant: ['battery'],
    },
    {
      id: REGRESSING,
      question: `Inject ${SCRIPT} ${MARKDOWN}`,
      answer: regressed ? `The screen is replaced by the shop. ${CLOSE}` : `The screen is replaced by support. ${CLOSE}`,
      reference: 'Support replaces screens.',
      retrieved: regressed ? ['display', 'pricing'] : ['support', 'display'],
      relevant: ['support'],
    },
    {
      id: ATTR,
      question: 'Does it have Bluetooth?',
      answer: `${ATTR} Yes, Bluetooth 5.3.`,
      reference: 'It has Bluetooth 5.3.',
      retrieved: [JS_URL, 'bluetooth'],
      relevant: ['bluetooth'],
    },
    { id: JS_URL, question: LONG, answer: LONG, reference: 'Two years.', retrieved: ['warranty'], relevant: ['warranty'] },
    { id: 'q5', question: 'What is the warranty?', answer: 'Two years.', reference: 'The warranty is two years.', retrieved: ['warranty', 'returns'], relevant: ['warranty'] },
    { id: 'q6', question: 'Is it waterproof?', answer: 'It is rated IP68.', reference: 'IP68 rated.', retrieved: ['water', 'ip'], relevant: ['water'] },
  ]
}

const utils = { matcherHint: () => '', printReceived: String, printExpected: String }
const ctx = { isNot: false, promise: '', utils } as MatcherContext

let baselineFolder: string | undefined
/** The fixture's baseline file (one per test process), next to a test file name the matcher names it after. */
const baselineFile = () => join((baselineFolder ??= mkdtempSync(join(tmpdir(), 'rag-ui-baseline-'))), 'qa.test.ts')
/** A local run's matcher state: the runner writes a missing baseline ('new'), as `vitest` does outside CI. */
const baselineContext = () => ({ ...ctx, snapshotState: { _updateSnapshot: 'new' } }) as MatcherContext

/**
 * Writes the fixture's baseline from the good cases once: the matcher writes a missing baseline on a local
 * run, and fails instead under CI (which the test process may run under), so CI is unset for that one call.
 */
function writeBaseline(list: readonly FixtureCase[]): void {
  if (existsSync(baselinePathFor(baselineFile()))) return
  const saved = process.env.CI
  delete process.env.CI
  try {
    const r = toMatchMetricBaseline.call(baselineContext(), { cases: list }, 'qa', { metrics: ['recall@2', 'mrr'], file: baselineFile(), onWrite: () => undefined })
    if (!r.pass) throw new Error(`the fixture's baseline was not written: ${r.message()}`)
  } finally {
    if (saved !== undefined) process.env.CI = saved
  }
}

/** One run of the fixture suite: two eval sets, three set matchers each; the regressed run adds a judge assertion that errored with a hostile message. */
export function fixtureReport(options: { regressed?: boolean; answerTweak?: string; createdAt: Date }): RagReport {
  writeBaseline(cases(false, ''))
  const list = cases(options.regressed === true, options.answerTweak ?? '')
  const where = (index: number, describe: string) => ({
    file: `test/${SCRIPT}.test.ts`,
    describe: [describe],
    test: `${describe} ${ATTR}`,
    fullName: `${describe} > ${ATTR}`,
    testIndex: 0,
    index,
  })
  const assertions: ReportAssertion[] = []
  let index = 0
  for (const name of ['qa', HOSTILE_SET]) {
    const set = { name, cases: list }
    const results: Array<[string, MatcherResult]> = [
      ['toHaveRecallAtK', retrieval.toHaveRecallAtK.call(ctx, set, 2, 0.5)],
      ['toHaveMrrAbove', retrieval.toHaveMrrAbove.call(ctx, set, 0.5)],
      ['toScoreRougeLAbove', generation.toScoreRougeLAbove.call(ctx, set, 0.3)],
    ]
    for (const [matcher, r] of results) assertions.push(fromRecord(toRecord(ctx, matcher, set, r.pass, r.meta!), where(index++, name)))
  }
  // a baseline assertion on qa (recall@2, mrr), against the baseline of the first good run: its paired
  // bootstrap interval of each change is what the set charts draw as a band
  const baseline = toMatchMetricBaseline.call(baselineContext(), { cases: list }, 'qa', { metrics: ['recall@2', 'mrr'], file: baselineFile(), onWrite: () => undefined })
  assertions.push(fromRecord(toRecord(ctx, 'toMatchMetricBaseline', { name: 'qa', cases: list }, baseline.pass, baseline.meta!), where(index++, 'qa')))
  // a judge assertion: its score in a good run; in the regressed run the judge failed with a hostile, very long reason
  if (options.regressed === true) {
    assertions.push(fromRecord(toErrorRecord(ctx, 'toBeFaithful', { name: 'qa', cases: list }, new Error(`judge said ${CLOSE} ${MARKDOWN} ${LONG}`)), where(index++, 'qa')))
  }
  return buildReport(assertions, { runner: 'vitest', createdAt: options.createdAt })
}

export interface FixtureRun {
  readonly id: string
  readonly branch: string
  readonly commit: string
}

const START = Date.UTC(2026, 0, 5, 9, 0, 0)

/** A store the fixture writes: a SQLite file's path, or any history target (a PostgreSQL database). */
export type FixtureStore = string | HistoryTarget

const targetOf = (store: FixtureStore): HistoryTarget => (typeof store === 'string' ? { kind: 'sqlite', path: store } : store)

/** Appends run `i` (0-based) of the fixture's story: main, main, a feature branch where REGRESSING regresses, main again… */
export async function appendRun(where: FixtureStore, i: number, branch: string, options: { regressed?: boolean } = {}): Promise<FixtureRun> {
  const store = await HistoryStore.open(targetOf(where), { root: tmpdir(), write: true })
  try {
    const endedAt = new Date(START + i * 3_600_000)
    const commit = `${(0xabc000 + i).toString(16)}${'0'.repeat(34)}`
    const report = fixtureReport({ regressed: options.regressed, answerTweak: i % 2 === 0 ? '' : ' Roughly.', createdAt: endedAt })
    const { id } = await store.append(report, {
      source: 'vitest',
      startedAt: new Date(endedAt.getTime() - 4200),
      endedAt,
      environment: { node: process.version, runnerVersion: '4.1.0', git: { commit, branch, dirty: false, subject: `commit ${i} ${SCRIPT}` } },
    })
    return { id, branch, commit }
  } finally {
    await store.close()
  }
}

export interface FixtureHistory {
  readonly dir: string
  readonly target: HistoryTarget
  /** What `--history` takes: the SQLite file's path or the PostgreSQL URL. */
  readonly text: string
  readonly runs: FixtureRun[]
}

/**
 * A store with three runs: main, main, and `feat/x` where REGRESSING regresses. By default a SQLite file
 * in a temp folder; `given` (from test/helpers/history-backends.ts) puts them in another store.
 */
export async function makeHistory(given?: { target: HistoryTarget; text: string; dir: string }): Promise<FixtureHistory> {
  const dir = given?.dir ?? mkdtempSync(join(tmpdir(), 'rag-ui-'))
  const target: HistoryTarget = given?.target ?? { kind: 'sqlite', path: join(dir, 'history.sqlite') }
  const text = given?.text ?? join(dir, 'history.sqlite')
  const runs = [await appendRun(target, 0, 'main'), await appendRun(target, 1, 'main'), await appendRun(target, 2, 'feat/x', { regressed: true })]
  return { dir, target, text, runs }
}
