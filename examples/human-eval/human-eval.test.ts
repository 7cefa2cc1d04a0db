import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { agreementReport, loadRatings, meteorScore, metricAlignment, numericConsistency, spearman, pearson, kendallTau, winRate } from '../../src/index.js'
const here = dirname(fileURLToPath(import.meta.url))
const qa = join(here, '..', 'transformer-qa', 'data')
const evalSet = JSON.parse(readFileSync(join(qa, 'eval-set.json'), 'utf8')) as Array<{ id: string; reference: string }>
const answers = (JSON.parse(readFileSync(join(qa, 'answers.json'), 'utf8')) as { answers: Record<string, string> }).answers
it('explore', async () => {
  const { scores, comparisons } = await loadRatings(join(here, 'ratings.jsonl'))
  const rep = agreementReport(scores)
  console.log(JSON.stringify(rep.details.dimensions.map((d) => ({ dim: d.dimension, k: d.pairwiseKappa.map((p) => [p.raters.join('-'), p.value]), f: d.fleissKappa.value, a: d.krippendorffAlpha.value })), null, 1))
  const human: Record<string, number> = {}
  for (const c of evalSet) {
    const s = scores.filter((r) => r.item === c.id && r.dimension === 'correctness').map((r) => r.score as number)
    human[c.id] = s.reduce((a, b) => a + b, 0) / s.length
  }
  const met: Record<string, number> = {}
  const num: Record<string, number> = {}
  for (const c of evalSet) {
    met[c.id] = meteorScore(answers[c.id]!, c.reference).value
    num[c.id] = numericConsistency(answers[c.id]!, c.reference).value
  }
  console.log(human, met, num)
  for (const m of ['spearman', 'kendall', 'pearson'] as const) {
    console.log(m, 'meteor', metricAlignment(met, human, { method: m }).value, metricAlignment(met, human, { method: m }).details.pvalue, 'numeric', metricAlignment(num, human, { method: m }).value, metricAlignment(num, human, { method: m }).details.pvalue)
  }
  console.log(metricAlignment(met, human, { method: 'pass-fail', threshold: 0.4, humanThreshold: 3 }).details)
  console.log(metricAlignment(num, human, { method: 'pass-fail', threshold: 1, humanThreshold: 3 }).details)
  const rec = (await loadRatings(join(here, 'pairwise.jsonl'))).comparisons
  let w = 0, l = 0, t = 0
  for (const c of rec) { const side = c.a === 'recorded' ? 'a' : 'b'; if (c.winner === 'tie') t++; else if (c.winner === side) w++; else l++ }
  console.log(w, l, t, winRate({ wins: w, losses: l, ties: t }).details)
})
