// Can the judge be trusted? The loop of issue #30 on the transformer-qa answers:
//
// 1. Trials: the judge scores the correctness of the 8 recorded answers 5 times each (describeEvalSet's
//    `trials: 5`, seeds 42…46). The assertion reports mean, min, max, pass rate, flip rate and the
//    judge's self-consistency, and `maxFlipRate` fails it, with or without `.not`, if verdicts flip.
// 2. Alignment: the judge's verdict per answer (the median of its 5 trials) against the three raters'
//    correctness labels in ratings.jsonl: Cohen's kappa against each answer's median human score
//    (linear weights on the 1–5 scale) and Spearman against the mean human score.
//    The same comparison from the command line, on the committed judged.jsonl:
//      npx rag-matchers align examples/human-eval/ratings.jsonl examples/human-eval/judged.jsonl --dimension correctness --min-kappa 0.5
//
// The judge here is a STAND-IN (stand-in-judge.ts: a function scoring the answers' numbers, with the
// score noise of a sampled model), its replies replayed from __rag_judge_cache__/ as CI replays a real
// judge's. The numbers quoted were computed first (the test prints them); the bars sit under them.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describeEvalSet } from '../../runners/matchers.js'
import { loadRatings, rubricScore, type Ratings } from '../../src/index.js'
// rag-matchers/agreement in a project of your own
import { humanAlignment, parseJudged, type JudgedRating } from '../../src/agreement/public.js'
// rag-matchers/judge
import { trialStatistics } from '../../src/judge/public.js'
import { alignmentConfusion, alignmentDisagreements, alignmentSummary } from '../../src/agreement/human-alignment-text.js'
import { CORRECTNESS, exampleJudge } from './stand-in-judge.js'

const here = dirname(fileURLToPath(import.meta.url))
const qa = join(here, '..', 'transformer-qa', 'data')
const evalSet = JSON.parse(readFileSync(join(qa, 'eval-set.json'), 'utf8')) as Array<{ id: string; question: string; reference: string }>
// The raters judged the committed recording, so the example always reads it (never the --live answers).
const answers = (JSON.parse(readFileSync(join(qa, 'answers.json'), 'utf8')) as { answers: Record<string, string> }).answers
const TRIALS = 5
const judge = exampleJudge()

let ratings: Ratings
beforeAll(async () => {
  ratings = await loadRatings(join(here, 'ratings.jsonl'))
})

/** The judge's verdict per answer: the median raw score of its trials (seeds 42…46), with the first trial's reason. */
async function judgedVerdicts(cases: ReadonlyArray<{ id: string; question: string; reference: string; answer?: string }>): Promise<JudgedRating[]> {
  return Promise.all(
    cases.map(async (c) => {
      // the same question, reference and seeds as the assertion's trials: the same recorded replies
      const score = await rubricScore(c.answer ?? '', CORRECTNESS, judge, { question: c.question, reference: c.reference, repeat: TRIALS })
      const raws = (score.details.consistency?.values ?? [score.value]).map((v) => Math.round(1 + 4 * v)).sort((a, b) => a - b)
      return { item: c.id, score: raws[Math.floor(raws.length / 2)] as number, reason: score.details.reason }
    }),
  )
}

describeEvalSet(
  'judge trials: correctness of the recorded answers',
  { dataset: evalSet.map((item) => ({ ...item })), pipeline: (_question, item) => ({ answer: answers[item.id] ?? '' }), trials: TRIALS, progress: 'off' },
  (run) => {
    it('over 5 trials no verdict flips (flip rate 0 of 8, Fleiss κ 1); the scores move by a point (Krippendorff α 0.803)', async () => {
      // mean 0.80 ≥ 0.5; a judge whose verdicts flipped on more than 1 answer in 8 would fail this either way
      await expect(run).toSatisfyRubric(CORRECTNESS, 0.5, { judge, maxFlipRate: 0.125 })
      // the one wrong answer (bleu-en-de) fails in every trial: 35 of 40 verdicts pass (0.875)
      await expect(run).toSatisfyRubric(CORRECTNESS, 0.5, { judge, minPassRate: 0.85 })
      await expect(run).not.toSatisfyRubric(CORRECTNESS, 0.5, { judge, minPassRate: 0.9 })
    })

    it('demanding a perfect 5 turns that score noise into verdicts that flip on 7 of 8 answers', async () => {
      // the statistics behind the assertions, at min 1: with { maxFlipRate: 0.125 } that assertion would fail, also with .not
      const perTrial = await Promise.all(
        run.cases.map(async (c) => {
          const score = await rubricScore(c.answer ?? '', CORRECTNESS, judge, { question: c.question, reference: c.reference, repeat: TRIALS })
          return { id: c.id, values: score.details.consistency?.values ?? [score.value] }
        }),
      )
      const strict = trialStatistics(perTrial, 1)
      expect(strict.flipRate).toBe(7 / 8)
      expect(strict.flipped.map((c) => c.id)).not.toContain('bleu-en-de')
      expect(trialStatistics(perTrial, 0.5).flipRate).toBe(0)
    })

    it("agrees with the people on correctness as a pass/fail grader (kappa 0.556, linear), not as a ranker (Spearman 0.103); the people's own α is 0.749", async () => {
      const judged = await judgedVerdicts(run.cases)
      const alignment = humanAlignment(judged, ratings, { dimension: 'correctness' })
      console.log(['judge vs people:', alignmentSummary(alignment.details), alignmentConfusion(alignment.details), alignmentDisagreements(alignment.details)].join('\n'))
      expect(judged).toAgreeWithHumans(ratings, { dimension: 'correctness', minKappa: 0.5 })
      // it cannot tell a 4 from a 5 the way people do: two answers all three scored 4 get a 5, two they scored 5 get a 4
      expect(judged).not.toAgreeWithHumans(ratings, { dimension: 'correctness', minSpearman: 0.5 })
    })

    it('judged.jsonl (for `rag-matchers align`) holds exactly these verdicts', async () => {
      const committed = parseJudged(readFileSync(join(here, 'judged.jsonl'), 'utf8'), 'judged.jsonl')
      expect(committed).toEqual(await judgedVerdicts(run.cases))
    })
  },
)
