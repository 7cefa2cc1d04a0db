// Runs under Vitest AND Jest (globals only). Property (fast-check): against a judge server whose verdicts
// turn over with a set probability p per request (test/helpers/trials-flipping-judge.ts), the flip rate
// and pass rate an assertion reports match the set values within sampling error, and maxFlipRate
// decides exactly on the measured rate, with and without .not.
//
// Two checks per run: the reported rates equal the counts of the server's verdicts (computed here from its
// own verdict function, so any slip in the statistics fails), and those counts are what the set p gives.
// Sampling error, exactly: a case flips with q = 1 − (1 − p)ⁿ − pⁿ independently of the others, so the
// number of flipped cases is Binomial(N, q); the passes are Binomial(N_pass·n, 1 − p) + Binomial(N_fail·n, p).
// A count is accepted when neither tail of its exact distribution is below 1e-6, so a server that
// realises p fails a run about once in 250,000 checks, while the wrong expected rate (a per-trial flip
// probability taken for a per-case flip rate) falls far outside.
import fc from 'fast-check'
import { expectedFlipRate } from '../../src/judge/trials.js'
import { allMatchers } from '../../matchers/all.js'
import type { MatcherResult } from '../../matchers/context.js'
import { matcherContext } from '../helpers/matcher-context.js'
import { memoryCache, startFlippingJudge, verdictOf, type FlippingCase } from '../helpers/trials-flipping-judge.js'

const TAIL = 1e-6
const CASES = 60
const RUBRIC = { id: 'correct', criteria: 'The answer states the right number.' }

function binomialPmf(n: number, p: number): number[] {
  // by the recurrence on k, in logs for stability at n up to a few hundred
  const pmf: number[] = []
  if (p === 0 || p === 1) {
    for (let k = 0; k <= n; k++) pmf.push((p === 0 ? k === 0 : k === n) ? 1 : 0)
    return pmf
  }
  let logC = 0
  for (let k = 0; k <= n; k++) {
    if (k > 0) logC += Math.log(n - k + 1) - Math.log(k)
    pmf.push(Math.exp(logC + k * Math.log(p) + (n - k) * Math.log(1 - p)))
  }
  return pmf
}

function convolve(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(a.length + b.length - 1).fill(0)
  a.forEach((x, i) => b.forEach((y, j) => (out[i + j] = (out[i + j] as number) + x * y)))
  return out
}

/** Whether `count` lies within the distribution's bulk: both tails at it at least TAIL. */
function plausible(pmf: readonly number[], count: number): boolean {
  const below = pmf.slice(0, count + 1).reduce((s, x) => s + x, 0)
  const above = pmf.slice(count).reduce((s, x) => s + x, 0)
  return below >= TAIL && above >= TAIL
}

describe('trials against a judge with a known flip probability', () => {
  it('measured flip rate and pass rate match the set p within sampling error; maxFlipRate decides on the measured rate both ways', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          // in hundredths: fc.double favours values near 0, where nothing flips
          p: fc.integer({ min: 0, max: 50 }).map((k) => k / 100),
          trials: fc.integer({ min: 2, max: 5 }),
          passing: fc.integer({ min: 0, max: CASES }),
          seed: fc.integer({ min: 0, max: 1_000_000 }),
          maxFlipRate: fc.integer({ min: 0, max: 100 }).map((k) => k / 100),
          protocol: fc.constantFrom('ollama' as const, 'openai' as const),
        }),
        async ({ p, trials, passing, seed, maxFlipRate, protocol }) => {
          // a fresh text per run: the flips are drawn from the answer and the seed
          const cases = new Map<string, FlippingCase>(Array.from({ length: CASES }, (_, i) => [`run ${seed} answer ${i}`, { pass: i < passing, p }]))
          const set = [...cases.keys()].map((answer, i) => ({ id: `q${i}`, answer }))
          const server = await startFlippingJudge(protocol, cases)
          try {
            // a fresh cache per run (shrinking repeats seeds with other base verdicts, which the request does not show),
            // recorded by the first assertion so that the gated ones replay the same verdicts
            const judge = server.judge({ seed, cache: memoryCache() })
            const plain = (await allMatchers.toSatisfyRubric.call(matcherContext(false), set, RUBRIC, 0.5, { judge, repeat: trials })) as MatcherResult
            const t = plain.meta?.extra?.trials as { flipRate: number; passRate: number; n: number }
            expect(t.n).toBe(trials)
            // exactly the server's verdicts, counted here from its own function
            const verdicts = [...cases].map(([answer, c]) => Array.from({ length: trials }, (_, k) => verdictOf(c, answer, seed + k)))
            const flips = verdicts.filter((row) => new Set(row).size > 1).length
            const passes = verdicts.flat().filter(Boolean).length
            expect(t.flipRate).toBe(flips / CASES)
            expect(t.passRate).toBe(passes / (CASES * trials))
            // and those counts are what the set p gives, within sampling error
            const q = expectedFlipRate(p, trials)
            if (!plausible(binomialPmf(CASES, q), flips)) throw new Error(`flip rate ${t.flipRate} is not plausible for p ${p} over ${trials} trials (expected ${q})`)
            const passPmf = convolve(binomialPmf(passing * trials, 1 - p), binomialPmf((CASES - passing) * trials, p))
            const expectedPass = (passing * (1 - p) + (CASES - passing) * p) / CASES
            if (!plausible(passPmf, passes)) throw new Error(`pass rate ${t.passRate} is not plausible for p ${p} (expected ${expectedPass})`)
            // same requests again (replies are a function of the request): the gate decides on that rate, both ways
            for (const isNot of [false, true]) {
              const gated = (await allMatchers.toSatisfyRubric.call(matcherContext(isNot), set, RUBRIC, 0.5, { judge, repeat: trials, maxFlipRate })) as MatcherResult
              const trusted = t.flipRate <= maxFlipRate
              if (!trusted)
                expect(gated.pass).toBe(isNot) // a failure whichever way the runner reads it
              else expect(gated.pass).toBe(plain.pass)
              expect(gated.meta?.pass).toBe(trusted ? plain.meta?.pass : false)
            }
          } finally {
            const unhandled = server.unhandled.length
            await server.close()
            expect(unhandled).toBe(0)
          }
        },
      ),
      { numRuns: 6 },
    )
  }, 240_000)
})
