// Runs under Vitest AND Jest (globals only). Trials for judge-backed assertions (issue #30), against a
// judge server with known behaviour (test/helpers/trials-flipping-judge.ts): real ollamaJudge and
// openaiJudge clients over HTTP on 127.0.0.1, each answer's verdict turning over with a set probability
// per request. Every expected number is computed here from the server's own verdict function and the
// agreement core, never copied from a run.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fleissKappa } from '../../src/agreement/fleiss-kappa.js'
import { krippendorffAlpha } from '../../src/agreement/krippendorff-alpha.js'
import { judgeCache } from '../../src/judge/cache.js'
import { allMatchers } from '../../matchers/all.js'
import { configure, resetConfig } from '../../matchers/config.js'
import type { MatcherResult } from '../../matchers/context.js'
import { matcherContext } from '../helpers/matcher-context.js'
import { TRIALS_ENV } from '../../matchers/judge-trials.js'
import { describeEvalSet } from '../../runners/describe-eval-set.js'
import { asyncFailureOf, stripAnsi } from '../helpers/failure.js'
import { startFlippingJudge, verdictOf, type FlippingCase, type FlippingJudgeServer, type FlippingProtocol } from '../helpers/trials-flipping-judge.js'

const RUBRIC = { id: 'correct', criteria: 'The answer states the right number.' }
const SEED = 42

/** n answers `answer 0` … with the same behaviour. */
function answers(n: number, c: FlippingCase, prefix = 'answer'): Map<string, FlippingCase> {
  return new Map(Array.from({ length: n }, (_, i) => [`${prefix} ${i}`, c]))
}
const setOf = (cases: ReadonlyMap<string, FlippingCase>) => [...cases.keys()].map((answer, i) => ({ id: `q${i}`, answer }))

/** What the server answers for every case and trial, as verdicts (cases × trials). */
function verdicts(cases: ReadonlyMap<string, FlippingCase>, trials: number, seed = SEED): boolean[][] {
  return [...cases].map(([answer, c]) => Array.from({ length: trials }, (_, t) => verdictOf(c, answer, seed + t)))
}

/** The registered matcher's result (declaration checks, compute and all), for its meta. */
async function resultOf(isNot: boolean, received: unknown, ...args: unknown[]): Promise<MatcherResult> {
  return (await allMatchers.toSatisfyRubric.call(matcherContext(isNot), received, ...args)) as MatcherResult
}

const trialsOf = (r: MatcherResult) => r.meta?.extra?.trials as Record<string, any>

let server: FlippingJudgeServer | undefined
async function serve(cases: ReadonlyMap<string, FlippingCase>, protocol: FlippingProtocol = 'ollama'): Promise<FlippingJudgeServer> {
  server = await startFlippingJudge(protocol, cases)
  return server
}

const savedEnv = process.env[TRIALS_ENV]
afterEach(async () => {
  resetConfig()
  if (savedEnv === undefined) delete process.env[TRIALS_ENV]
  else process.env[TRIALS_ENV] = savedEnv
  const unhandled = server?.unhandled.length ?? 0
  await server?.close()
  server = undefined
  expect(unhandled).toBe(0)
})

describe('trials on one answer', () => {
  it('configure({ trials }) asks the judge n times with seeds seed … seed+n−1 and reports the trials', async () => {
    const s = await serve(answers(1, { pass: true, p: 0 }))
    configure({ trials: 4 })
    await expect('answer 0').toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge() })
    expect(s.requests.map((r) => r.body.options.seed)).toEqual([42, 43, 44, 45])
    const r = await resultOf(false, 'answer 0', RUBRIC, 0.5, { judge: s.judge() })
    expect(trialsOf(r)).toMatchObject({ n: 4, source: 'configure', seeds: [42, 45], cases: 1, mean: 1, min: 1, max: 1, passRate: 1, flipRate: 0, flipped: [] })
    // one case, every verdict the same: chance agreement is 1, so Fleiss' kappa is undefined, with the core's reason
    expect(trialsOf(r).fleissKappa).toEqual({ value: null, reason: fleissKappa([['pass', 'pass', 'pass', 'pass']], { input: 'ratings' }).details.reason })
    const message = stripAnsi(r.message())
    expect(message).toContain('trials: 4 (seeds 42…45, from configure) over 1 case')
    expect(message).toContain('pass rate 1.0000 (verdicts ≥ 0.5000), flip rate 0.0000 (0 of 1 case changed verdict)')
  })

  it('the matcher’s repeat wins over configure, and configure over RAG_MATCHERS_TRIALS', async () => {
    const s = await serve(answers(1, { pass: true, p: 0 }))
    process.env[TRIALS_ENV] = '3'
    expect(trialsOf(await resultOf(false, 'answer 0', RUBRIC, 0.5, { judge: s.judge() }))).toMatchObject({ n: 3, source: TRIALS_ENV })
    configure({ trials: 2 })
    expect(trialsOf(await resultOf(false, 'answer 0', RUBRIC, 0.5, { judge: s.judge() }))).toMatchObject({ n: 2, source: 'configure' })
    expect(trialsOf(await resultOf(false, 'answer 0', RUBRIC, 0.5, { judge: s.judge(), repeat: 5 }))).toMatchObject({ n: 5, source: 'repeat' })
  })

  it('one trial and no gate: no trials block, as before', async () => {
    const s = await serve(answers(1, { pass: true, p: 0 }))
    const r = await resultOf(false, 'answer 0', RUBRIC, 0.5, { judge: s.judge() })
    expect(r.meta?.extra?.trials).toBeUndefined()
    expect(s.requests).toHaveLength(1)
  })

  it('a bad RAG_MATCHERS_TRIALS or configure({ trials }) is refused, naming it', async () => {
    const s = await serve(answers(1, { pass: true, p: 0 }))
    process.env[TRIALS_ENV] = 'three'
    for (const run of [
      () => expect('answer 0').toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge() }),
      () => expect('answer 0').not.toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge() }),
    ]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('Matcher error')
      expect(message).toContain(`the environment variable ${TRIALS_ENV} must be an integer from 1 to 100`)
    }
    expect(s.requests).toHaveLength(0)
    expect(() => configure({ trials: 0 })).toThrow('configure: Expected `trials` to be an integer from 1 to 100, got `0` (number)')
    expect(() => configure({ trials: 2.5 })).toThrow('Expected `trials` to be an integer from 1 to 100')
  })
})

describe('trial statistics of an eval set equal the counts of the server’s verdicts and the agreement core', () => {
  for (const protocol of ['ollama', 'openai'] as const) {
    it(`${protocol}: pass rate, flip rate, flipped cases, Fleiss' kappa and Krippendorff's alpha`, async () => {
      const cases = new Map([...answers(12, { pass: true, p: 0.3 }), ...answers(8, { pass: false, p: 0.2 }, 'wrong')])
      const s = await serve(cases, protocol)
      const trials = 5
      const r = await resultOf(false, setOf(cases), RUBRIC, 0.5, { judge: s.judge(), repeat: trials })
      const v = verdicts(cases, trials)
      const passes = v.flat().filter(Boolean).length
      const flippedIds = setOf(cases)
        .filter((_, i) => new Set(v[i]).size > 1)
        .map((c) => c.id)
      const t = trialsOf(r)
      expect(s.requests).toHaveLength(cases.size * trials)
      expect(t.passRate).toBe(passes / (cases.size * trials))
      expect(t.flipRate).toBe(flippedIds.length / cases.size)
      expect(t.flipped).toEqual(flippedIds.slice(0, 10))
      // scores are 1 (pass) or 0 (fail) on the normalised scale, so the mean is the pass rate
      expect(t.mean).toBeCloseTo(passes / (cases.size * trials), 12)
      const means = Array.from({ length: trials }, (_, k) => v.filter((row) => row[k]).length / cases.size)
      expect(t.min).toBeCloseTo(Math.min(...means), 12)
      expect(t.max).toBeCloseTo(Math.max(...means), 12)
      expect(t.fleissKappa.value).toBe(
        fleissKappa(
          v.map((row) => row.map((p) => (p ? 'pass' : 'fail'))),
          { input: 'ratings' },
        ).value,
      )
      const matrix = Array.from({ length: trials }, (_, k) => v.map((row) => (row[k] ? 1 : 0)))
      expect(t.krippendorffAlpha.value).toBe(krippendorffAlpha(matrix, { level: 'interval' }).value)
      const message = stripAnsi(r.message())
      expect(message).toContain(`flip rate ${t.flipRate.toFixed(4)} (${flippedIds.length} of 20 cases changed verdict)`)
      expect(message).toContain('cases whose verdict flipped (value per trial, ✓ ≥ 0.5000):')
    })
  }
})

describe('maxFlipRate', () => {
  const flipping = () => answers(20, { pass: true, p: 0.5 })

  it('fails above it, with and without .not, naming the cases that flipped', async () => {
    const cases = flipping()
    const s = await serve(cases)
    configure({ trials: 4 })
    const v = verdicts(cases, 4)
    const flippedCount = v.filter((row) => new Set(row).size > 1).length
    expect(flippedCount).toBeGreaterThan(2) // the set-up: p = 0.5 over 4 trials flips most cases
    for (const isNot of [false, true]) {
      const run = () =>
        isNot
          ? expect(setOf(cases)).not.toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), maxFlipRate: 0.1 })
          : expect(setOf(cases)).toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), maxFlipRate: 0.1 })
      const message = await asyncFailureOf(run)
      expect(message).toContain(
        `the judge changed its verdict between trials in ${flippedCount} of 20 cases: flip rate ${(flippedCount / 20).toFixed(4)} > maxFlipRate 0.1000`,
      )
      expect(message).toContain(isNot ? 'and the assertion fails (also with .not).' : 'and the assertion fails.')
      expect(message).toContain('cases whose verdict flipped')
      const r = await resultOf(isNot, setOf(cases), RUBRIC, 0.5, { judge: s.judge(), maxFlipRate: 0.1 })
      expect(r.pass).toBe(isNot) // the runner flips it for .not: a failure either way
      expect(r.meta?.pass).toBe(false)
      expect(r.meta?.extra?.error).toContain('flip rate')
    }
  })

  it('passes at or below it: the mean against min decides, and .not flips only that', async () => {
    const good = answers(6, { pass: true, p: 0 })
    const bad = answers(6, { pass: false, p: 0 }, 'wrong')
    const s = await serve(new Map([...good, ...bad]))
    configure({ trials: 3 })
    await expect(setOf(good)).toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), maxFlipRate: 0 })
    await expect(setOf(bad)).not.toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), maxFlipRate: 0 })
    const message = await asyncFailureOf(() => expect(setOf(bad)).toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), maxFlipRate: 0 }))
    expect(message).toContain('mean rubric score over 6 cases = 0.0000   required ≥ 0.5000')
    expect(message).toContain('flip rate 0.0000 (0 of 6 cases changed verdict)')
    expect(message).not.toContain('cannot be trusted')
  })

  it('flip rate exactly at maxFlipRate passes (≤ is allowed)', async () => {
    const cases = flipping()
    const s = await serve(cases)
    const v = verdicts(cases, 3)
    const rate = v.filter((row) => new Set(row).size > 1).length / 20
    const r = await resultOf(false, setOf(cases), RUBRIC, 0, { judge: s.judge(), repeat: 3, maxFlipRate: rate })
    expect(r.pass).toBe(true)
  })

  it('with one trial it is a Matcher error, with and without .not: nothing could flip', async () => {
    const s = await serve(answers(2, { pass: true, p: 0 }))
    for (const run of [
      () => expect(setOf(answers(2, { pass: true, p: 0 }))).toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), maxFlipRate: 0.2 }),
      () => expect('answer 0').not.toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), maxFlipRate: 0.2 }),
    ]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('Matcher error')
      expect(message).toContain('options.maxFlipRate needs at least 2 trials, and this assertion has 1 (default)')
    }
    expect(s.requests).toHaveLength(0)
  })

  it('a maxFlipRate outside 0–1 is a Matcher error', async () => {
    const s = await serve(answers(1, { pass: true, p: 0 }))
    const message = await asyncFailureOf(() => expect('answer 0').toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), repeat: 2, maxFlipRate: 1.5 }))
    expect(message).toContain('options.maxFlipRate must be a number from 0 to 1')
  })
})

describe('minPassRate', () => {
  it('decides on the share of case × trial verdicts; .not flips it', async () => {
    const cases = answers(10, { pass: true, p: 0.25 })
    const s = await serve(cases)
    const v = verdicts(cases, 4)
    const rate = v.flat().filter(Boolean).length / 40
    expect(rate).toBeGreaterThan(0)
    expect(rate).toBeLessThan(1)
    configure({ trials: 4 })
    await expect(setOf(cases)).toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), minPassRate: rate })
    await expect(setOf(cases)).not.toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), minPassRate: rate + 0.01 })
    const message = await asyncFailureOf(() => expect(setOf(cases)).toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), minPassRate: rate + 0.01 }))
    expect(message).toContain(`pass rate of rubric score ≥ 0.5000 over 10 cases × 4 trials = ${rate.toFixed(4)}   required ≥ ${(rate + 0.01).toFixed(4)}`)
    const notMessage = await asyncFailureOf(() => expect(setOf(cases)).not.toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), minPassRate: rate }))
    expect(notMessage).toContain(`required < ${rate.toFixed(4)}`)
  })

  it('cases whose pipeline failed stay out of the trials and in the message (failedCases skip)', async () => {
    const cases = answers(3, { pass: true, p: 0 })
    const s = await serve(cases)
    const received = [...setOf(cases), { id: 'broken', question: 'Anything?', error: 'pipeline timeout (504)' }]
    const r = await resultOf(true, received, RUBRIC, 0.5, { judge: s.judge(), repeat: 2, minPassRate: 0.9, failedCases: 'skip' })
    expect(trialsOf(r)).toMatchObject({ cases: 3, passRate: 1 })
    expect(r.pass).toBe(true)
    const message = stripAnsi(r.message())
    expect(message).toContain('broken')
    expect(message).toContain('pipeline timeout (504)')
  })

  it('on one answer it is the share of its trials; passRate and minPassRate together are refused', async () => {
    const s = await serve(answers(1, { pass: true, p: 0.5 }))
    const v = verdicts(answers(1, { pass: true, p: 0.5 }), 6)[0] as boolean[]
    const rate = v.filter(Boolean).length / 6
    const r = await resultOf(false, 'answer 0', RUBRIC, 0.5, { judge: s.judge(), repeat: 6, minPassRate: rate })
    expect(r.pass).toBe(true)
    expect(trialsOf(r).passRate).toBe(rate)
    const message = await asyncFailureOf(() => expect('answer 0').toSatisfyRubric(RUBRIC, 0.5, { judge: s.judge(), repeat: 6, minPassRate: 0.5, passRate: 0.5 }))
    expect(message).toContain('options.passRate and options.minPassRate are the same gate')
  })
})

describe('trials and the replay cache', () => {
  const root = mkdtempSync(join(tmpdir(), 'rag-matchers-trials-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('records every trial as its own entry, replays all of them without a model, and a missing trial fails naming it', async () => {
    const cases = answers(3, { pass: true, p: 0.3 })
    const dir = join(root, 'cache')
    const s = await serve(cases)
    configure({ trials: 3 })
    const recorded = await resultOf(false, setOf(cases), RUBRIC, 0, { judge: s.judge({ cache: judgeCache({ dir, mode: 'readwrite' }) }) })
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toHaveLength(9)
    const asked = s.requests.length
    const replayed = await resultOf(false, setOf(cases), RUBRIC, 0, { judge: s.judge({ cache: judgeCache({ dir, mode: 'replay' }) }) })
    expect(s.requests).toHaveLength(asked)
    expect(trialsOf(replayed)).toEqual(trialsOf(recorded))

    configure({ trials: 4 })
    for (const isNot of [false, true]) {
      const judge = s.judge({ cache: judgeCache({ dir, mode: 'replay' }) })
      const message = await asyncFailureOf(() =>
        isNot ? expect(setOf(cases)).not.toSatisfyRubric(RUBRIC, 0, { judge }) : expect(setOf(cases)).toSatisfyRubric(RUBRIC, 0, { judge }),
      )
      expect(message).toContain('could not be computed, so the assertion fails.')
      expect(message).toContain('Trial 4 of 4 (seed 45): Judge cache (mode replay) has no entry for this request')
    }
    expect(s.requests).toHaveLength(asked)
  })
})

describe('a describeEvalSet block’s trials', () => {
  const cases = answers(4, { pass: true, p: 0.4 }, 'block answer')
  let s: FlippingJudgeServer
  describeEvalSet(
    'trials block',
    { dataset: [...cases.keys()].map((answer, i) => ({ id: `b${i}`, question: answer })), pipeline: (question) => ({ answer: question }), trials: 3, progress: 'off' },
    (run) => {
      it('reach the assertions on the run and on run.cases, over configure({ trials })', async () => {
        s = await startFlippingJudge('ollama', cases)
        try {
          configure({ trials: 2 })
          expect(run.trials).toBe(3)
          const viaRun = await resultOf(false, run, RUBRIC, 0.5, { judge: s.judge() })
          const viaCases = await resultOf(false, run.cases, RUBRIC, 0.5, { judge: s.judge() })
          expect(trialsOf(viaRun)).toMatchObject({ n: 3, source: 'eval set', cases: 4 })
          expect(trialsOf(viaCases)).toEqual(trialsOf(viaRun))
          // the cases still serialise as before
          expect(Object.keys(run.cases)).toEqual(['0', '1', '2', '3'])
        } finally {
          expect(s.unhandled).toHaveLength(0)
          await s.close()
        }
      })
    },
  )

  it('a trials option outside 1–100 is refused when the block is declared', () => {
    expect(() => describeEvalSet('bad', { dataset: [], pipeline: () => ({}), trials: 0 }, () => undefined)).toThrow(
      'describeEvalSet: Expected `options.trials` to be an integer from 1 to 100, got `0` (number)',
    )
  })
})
