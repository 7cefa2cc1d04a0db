// Human evaluation of the transformer-qa answers: do the raters agree, does a metric agree with them, and
// do people prefer the recorded answers to an alternative set?
//
// Data (written for this example, not collected from real people; shown to illustrate the matchers):
// - ratings.jsonl: three raters (ana, ben, chen) score the 8 RECORDED answers of examples/transformer-qa
//   (data/answers.json) for correctness and helpfulness, 1–5. The bleu-en-de answer gives 41.0 (the
//   English-French score) for the English-German question, and every rater scores its correctness 1 or 2.
// - pairwise.jsonl: the same raters compare each recorded answer with the terse alternative-answers.json
//   (a/b order alternates); the alternative is right on bleu-en-de (28.4).
//
// The numbers quoted below were computed first (the test prints them); thresholds sit under or over them.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { agreementReport, loadRatings, meteorScore, metricAlignment, numericConsistency, type Ratings } from '../../src/index.js'

const here = dirname(fileURLToPath(import.meta.url))
const qa = join(here, '..', 'transformer-qa', 'data')
const evalSet = JSON.parse(readFileSync(join(qa, 'eval-set.json'), 'utf8')) as Array<{ id: string; reference: string }>
// The raters judged the committed recording, so the example always reads it (never the --live answers).
const answers = (JSON.parse(readFileSync(join(qa, 'answers.json'), 'utf8')) as { answers: Record<string, string> }).answers

let ratings: Ratings
let pairwise: Ratings
beforeAll(async () => {
  ratings = await loadRatings(join(here, 'ratings.jsonl'))
  pairwise = await loadRatings(join(here, 'pairwise.jsonl'))
})

/** Mean human correctness per answer (1–5). */
function humanCorrectness(): Record<string, number> {
  const out: Record<string, number> = {}
  for (const { id } of evalSet) {
    const scores = ratings.scores.filter((r) => r.item === id && r.dimension === 'correctness').map((r) => r.score as number)
    out[id] = scores.reduce((a, b) => a + b, 0) / scores.length
  }
  return out
}

const perAnswer = (score: (answer: string, reference: string) => number) => Object.fromEntries(evalSet.map((c) => [c.id, score(answers[c.id] as string, c.reference)]))

describe('human ratings of the recorded answers', () => {
  it('prints the agreement report', () => {
    const report = agreementReport(ratings.scores)
    // Number(…) turns -0.00 (Fleiss κ of helpfulness is -2e-16) into 0.00.
    const f = (x: number) => Number(x.toFixed(2)).toFixed(2)
    const lines = report.details.dimensions.map((d) => {
      const kappas = d.pairwiseKappa.map((p) => `${p.raters.join('–')} ${f(p.value)}`).join(', ')
      const disputed = d.disputedItems.slice(0, 2).map(
        (i) =>
          `${i.item} (${Object.entries(i.scores)
            .map(([r, s]) => `${r}=${String(s)}`)
            .join(' ')})`,
      )
      return `${d.dimension.padEnd(12)} α(${d.level}) ${f(d.krippendorffAlpha.value)}  Fleiss κ ${f(d.fleissKappa.value)}  Cohen κ ${kappas}  most disputed: ${disputed.join(', ')}`
    })
    console.log(`human ratings: ${report.details.dimensions[0]?.raters.length} raters × ${report.details.dimensions[0]?.items} answers\n${lines.join('\n')}`)
    expect(report.details.dimensions.map((d) => d.dimension)).toEqual(['correctness', 'helpfulness'])
  })

  it('the raters agree on correctness (Krippendorff α 0.749, ordinal) but not on helpfulness (0.398)', () => {
    // 0.667 is Krippendorff's lowest value for tentative conclusions.
    expect(ratings).toHaveAgreementAbove(0.667, { statistic: 'krippendorff', dimension: 'correctness' })
    expect(ratings).not.toHaveAgreementAbove(0.667, { statistic: 'krippendorff', dimension: 'helpfulness' })
    // Cohen's kappa treats 4 vs 5 as a plain disagreement: ana and chen 0.771, ben and chen only 0.314.
    expect(ratings).toHaveAgreementAbove(0.7, { statistic: 'cohen', dimension: 'correctness', raters: ['ana', 'chen'] })
  })

  it('everyone scores the wrong-number answer low on correctness', () => {
    expect(humanCorrectness()['bleu-en-de']).toBeLessThanOrEqual(2)
  })
})

describe('does a metric agree with the people?', () => {
  it('METEOR ranks the wrong-number answer FIRST: Spearman −0.774 against human correctness', () => {
    const meteor = perAnswer((a, r) => meteorScore(a, r).value) // bleu-en-de 0.874, the highest of the 8
    expect(meteor).not.toCorrelateWith(humanCorrectness(), 0)
  })

  it('the numeric check tracks human correctness: Pearson 0.954', () => {
    // stated / total reference numbers: 1 everywhere except bleu-en-de (0.5), so Pearson is the point-biserial r.
    const numeric = perAnswer((a, r) => numericConsistency(a, r).value)
    expect(numeric).toCorrelateWith(humanCorrectness(), 0.9, { method: 'pearson' })
  })

  it('pass/fail verdicts: METEOR ≥ 0.4 passes every answer (κ 0 with people), the numeric check agrees with them (κ 1)', () => {
    const human = humanCorrectness()
    const verdicts = (name: string, passes: (answer: string, reference: string) => boolean) =>
      evalSet.flatMap((c) => [
        { item: c.id, rater: 'people', score: (human[c.id] as number) >= 3 },
        { item: c.id, rater: name, score: passes(answers[c.id] as string, c.reference) },
      ])
    expect(verdicts('numeric check', (a, r) => numericConsistency(a, r).details.consistent)).toHaveAgreementAbove(0.8, { statistic: 'cohen' })
    expect(verdicts('METEOR ≥ 0.4', (a, r) => meteorScore(a, r).value >= 0.4)).not.toHaveAgreementAbove(0.2, { statistic: 'cohen' })
    // The same through the core, for the disagreeing item.
    const alignment = metricAlignment(
      perAnswer((a, r) => meteorScore(a, r).value),
      human,
      { method: 'pass-fail', threshold: 0.4, humanThreshold: 3 },
    )
    expect(alignment.details.disagreements?.map((d) => d.item)).toEqual(['bleu-en-de'])
  })
})

describe('pairwise preferences: recorded answers against the terse alternative set', () => {
  it('the recorded answers win: 18 wins, 4 losses, 2 ties, 95% Wilson interval [0.615, 0.927]', () => {
    expect(pairwise).toWinAgainst('alternative', { system: 'recorded', minRate: 0.5 })
    expect(pairwise).not.toWinAgainst('recorded', { system: 'alternative' })
  })

  it("one rater's 8 judgements are not enough (5 wins, 2 losses: lower bound 0.359)", () => {
    const ben = pairwise.comparisons.filter((c) => c.rater === 'ben')
    expect(ben).not.toWinAgainst('alternative', { system: 'recorded', minRate: 0.5 })
  })
})
