// `order: 'score'`: retrieved items ranked by score with trec_eval's one comparator (score descending,
// ties by docno descending in byte order), checked against trec_eval 10.0's own per-topic values.
import {
  averagePrecision,
  evaluateRetrieval,
  hitRateAtK,
  MetricInputError,
  ndcgAtK,
  precisionAtK,
  rPrecision,
  recallAtK,
  reciprocalRank,
  retrievalMetrics,
  type RetrievalCase,
} from '../../../src/retrieval/index.js'
import { normalizeCase } from '../../../src/retrieval/normalize.js'
import { trecRankOrder } from '../../../src/retrieval/order.js'
import { compareUtf8 } from '../../../src/retrieval/trec/bytes.js'
import { loadFixture } from '../../parity/fixtures/load.js'

function inputError(fn: () => unknown): MetricInputError {
  try {
    fn()
  } catch (error) {
    if (error instanceof MetricInputError) return error
    throw error
  }
  throw new Error('expected a MetricInputError, but nothing was thrown')
}

describe('issue #13: scores in retrieved items', () => {
  const c: RetrievalCase = {
    retrieved: [
      { id: 'a', score: 1 },
      { id: 'b', score: 5 },
    ],
    relevant: ['b'],
  }
  it('ranks in array order by default, whatever the scores say', () => {
    expect(reciprocalRank(c).value).toBe(0.5)
    expect(reciprocalRank(c).details.scoresOutOfOrder).toBe(true)
    expect(reciprocalRank(c).details.order).toBe('given')
  })
  it("ranks by score with order: 'score'", () => {
    expect(reciprocalRank(c, { order: 'score' }).value).toBe(1)
    expect(reciprocalRank(c, { order: 'score' }).details.topK.map((r) => r.id)).toEqual(['b', 'a'])
    expect(reciprocalRank(c, { order: 'score' }).details.scoresOutOfOrder).toBe(false)
  })
  it('does not reorder the input array', () => {
    reciprocalRank(c, { order: 'score' })
    expect(c.retrieved.map((r) => (r as { id: string }).id)).toEqual(['a', 'b'])
  })
  it('flags nothing when the given order already agrees with the scores', () => {
    const sorted = { retrieved: [{ id: 'b', score: 5 }, { id: 'a', score: 1 }, 'x', { id: 'y', score: 1 }], relevant: ['a'] }
    expect(reciprocalRank(sorted).details.scoresOutOfOrder).toBe(false)
    expect(reciprocalRank({ retrieved: ['a', 'b'], relevant: ['a'] }).details.scoresOutOfOrder).toBe(false)
  })
})

describe('every core function that takes a retrieved list', () => {
  // Given order puts the relevant id last; by score it is first.
  const c: RetrievalCase = {
    retrieved: [
      { id: 'x', score: 0.1 },
      { id: 'y', score: 0.2 },
      { id: 'r', score: 0.9 },
    ],
    relevant: ['r'],
  }
  it.each([
    ['precisionAtK', () => precisionAtK(c, 1).value, () => precisionAtK(c, 1, { order: 'score' }).value, 0, 1],
    ['recallAtK', () => recallAtK(c, 1).value, () => recallAtK(c, 1, { order: 'score' }).value, 0, 1],
    ['reciprocalRank', () => reciprocalRank(c).value, () => reciprocalRank(c, { order: 'score' }).value, 1 / 3, 1],
    ['ndcgAtK', () => ndcgAtK(c, 1).value, () => ndcgAtK(c, 1, { order: 'score' }).value, 0, 1],
    ['hitRateAtK', () => hitRateAtK(c, 1).value, () => hitRateAtK(c, 1, { order: 'score' }).value, 0, 1],
    ['averagePrecision', () => averagePrecision(c).value, () => averagePrecision(c, undefined, { order: 'score' }).value, 1 / 3, 1],
    ['rPrecision', () => rPrecision(c).value, () => rPrecision(c, { order: 'score' }).value, 0, 1],
    ['retrievalMetrics', () => retrievalMetrics(c.retrieved, c.relevant, 1).precision, () => retrievalMetrics(c.retrieved, c.relevant, 1, { order: 'score' }).precision, 0, 1],
    ['evaluateRetrieval', () => evaluateRetrieval([c], { k: 1 }).mean.mrr, () => evaluateRetrieval([c], { k: 1, order: 'score' }).mean.mrr, 1 / 3, 1],
  ])('%s', (_name, given, byScore, expectedGiven, expectedByScore) => {
    expect(given()).toBeCloseTo(expectedGiven, 15)
    expect(byScore()).toBe(expectedByScore)
  })

  it('records the order in the signature: order:score, or the default order:given', () => {
    // the last key (the library's version or revision) is not this option's business
    expect(recallAtK(c, 1, { order: 'score' }).signature).toMatch(/^R\|k:1\|empty:zero\|dup:first\|order:score\|[a-z]+:[^|]+$/)
    expect(recallAtK(c, 1).signature).toMatch(/^R\|k:1\|empty:zero\|dup:first\|order:given\|[a-z]+:[^|]+$/)
    expect(recallAtK(c, 1, { order: 'given' }).signature).toBe(recallAtK(c, 1).signature)
    expect(ndcgAtK(c, 1, { order: 'score', gain: 'exponential' }).signature).toMatch(/^nDCG\|k:1\|gain:exponential\|empty:zero\|dup:first\|order:score\|[a-z]+:[^|]+$/)
  })
})

describe('the tie rule (trec_eval 10: docno descending)', () => {
  it('breaks equal scores by id descending', () => {
    const tie = {
      retrieved: [
        { id: 'a', score: 1 },
        { id: 'c', score: 1 },
        { id: 'b', score: 1 },
      ],
      relevant: ['a'],
    }
    expect(reciprocalRank(tie, { order: 'score' }).details.topK.map((r) => r.id)).toEqual(['c', 'b', 'a'])
  })
  it('compares ids by UTF-8 bytes, not UTF-16 units (U+FF61 sorts below U+1F600 in bytes, above it in UTF-16)', () => {
    const tie = {
      retrieved: [
        { id: '\u{1F600}', score: 2 },
        { id: '\uFF61', score: 2 },
      ],
      relevant: ['\uFF61'],
    }
    expect('\uFF61' > '\u{1F600}').toBe(true)
    expect(reciprocalRank(tie, { order: 'score' }).details.topK.map((r) => r.id)).toEqual(['\u{1F600}', '\uFF61'])
  })
  it('compares numeric ids by their string form', () => {
    const tie = {
      retrieved: [
        { id: 9, score: 1 },
        { id: 10, score: 1 },
      ],
      relevant: ['10'],
    }
    expect(reciprocalRank(tie, { order: 'score' }).details.topK.map((r) => r.id)).toEqual(['9', '10'])
  })
  it('trecRankOrder: higher score first, ties by docno descending, NaN falls through to the docno', () => {
    const ids = ['a', 'b', 'c', 'd']
    const scores = [1, 5, 5, Number.NaN]
    const order = trecRankOrder(
      (i: number) => scores[i] as number,
      (x, y) => compareUtf8(ids[x] as string, ids[y] as string),
    )
    expect([0, 1, 2].sort(order)).toEqual([2, 1, 0])
    // NaN is neither above nor below 1: the docnos decide, descending, so 'd' ranks before 'a'
    expect(order(3, 0)).toBeLessThan(0)
    expect(order(0, 3)).toBeGreaterThan(0)
  })
})

describe('duplicates after ranking by score', () => {
  const c = {
    retrieved: [
      { id: 'a', score: 1 },
      { id: 'b', score: 2 },
      { id: 'a', score: 3 },
    ],
    relevant: ['a'],
  }
  it("'first' keeps the highest-scored occurrence", () => {
    const norm = normalizeCase('t', c, 'first', 'score')
    expect(norm.ids).toEqual(['a', 'b'])
    expect(norm.duplicateIds).toEqual(['a'])
  })
  it("'error' names the rank of the repeat in score order", () => {
    expect(inputError(() => reciprocalRank(c, { order: 'score', duplicates: 'error' })).message).toMatch(/"a" appears again at rank 3/)
  })
})

describe("refused input with order: 'score'", () => {
  it('a bare id, naming its position', () => {
    const e = inputError(() => precisionAtK({ retrieved: [{ id: 'a', score: 1 }, 'b'], relevant: ['a'] }, 1, { order: 'score' }))
    expect(e.argument).toBe('retrieved[1]')
    expect(e.message).toBe('precisionAtK: Expected `retrieved[1]` to be an object with a finite `score` (order: \'score\' ranks by score), got `"b"` (string)')
  })
  it.each([
    ['missing', undefined],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '3'],
  ])('a score that is %s, naming its position', (_what, score) => {
    const e = inputError(() =>
      ndcgAtK(
        {
          retrieved: [
            { id: 'a', score: 1 },
            { id: 'b', score: 2 },
            { id: 'c', score: score as number },
          ],
          relevant: ['a'],
        },
        3,
        { order: 'score' },
      ),
    )
    expect(e.argument).toBe('retrieved[2].score')
    expect(e.fn).toBe('ndcgAtK')
  })
  it('an id that is not an id, before any score is read', () => {
    expect(inputError(() => reciprocalRank({ retrieved: [{ id: null, score: 1 }] as never, relevant: ['a'] }, { order: 'score' })).argument).toBe('retrieved[0]')
  })
  it('an order that is not given or score', () => {
    const e = inputError(() => recallAtK({ retrieved: ['a'], relevant: ['a'] }, 1, { order: 'desc' as never }))
    expect(e.argument).toBe('options.order')
    expect(e.expected).toBe("'given' or 'score'")
  })
  it('in evaluateRetrieval, the case is refused too', () => {
    expect(() => evaluateRetrieval([{ retrieved: ['a'], relevant: ['a'] }], { k: 1, order: 'score' })).toThrow(MetricInputError)
  })
})

// --------------------------------------------------------------------------- trec_eval 10.0 parity

interface TrecRunRecord {
  exit_code: number
  per_query?: Record<string, Record<string, number | string>>
}
interface TrecCase {
  id: string
  qrels_text: string
  run_text: string
  trec_eval: Record<string, Record<string, TrecRunRecord>>
}

const golden = loadFixture<{ trec_cases: TrecCase[] }>('retrieval.json')
const CUTS = [1, 3, 5, 10, 100]

/** Per topic: the run's lines in FILE order as scored items (file order is not rank order in these cases), and the qrels grades. */
function casesOf(c: TrecCase): Map<string, RetrievalCase & { retrieved: Array<{ id: string; score: number }> }> {
  const out = new Map<string, { retrieved: Array<{ id: string; score: number }>; relevant: Record<string, number> }>()
  for (const line of c.qrels_text.split('\n')) {
    const [qid, , docno, rel] = line.trim().split(/\s+/)
    if (qid === undefined || qid === '' || docno === undefined) continue
    const topic = out.get(qid) ?? { retrieved: [], relevant: {} }
    topic.relevant[docno] = Number(rel)
    out.set(qid, topic)
  }
  for (const line of c.run_text.split('\n')) {
    const [qid, , docno, , sim] = line.trim().split(/\s+/)
    if (qid === undefined || qid === '' || docno === undefined) continue
    out.get(qid)?.retrieved.push({ id: docno, score: Number(sim) })
  }
  return out
}

describe("order: 'score' matches trec_eval 10.0 per topic on the golden runs (retrieval.json trec_cases)", () => {
  const cases = golden.trec_cases.filter((c) => c.trec_eval['10.0']?.custom?.exit_code === 0)
  it('has the golden cases with ties and unsorted run files', () => {
    expect(cases.map((c) => c.id)).toEqual(['graded_ties', 'random_graded', 'float32_ties', 'bpref_edge'])
  })
  for (const c of cases) {
    it(`${c.id}: P, recall, ndcg_cut, map_cut, success, recip_rank, map and Rprec to 1e-12`, () => {
      const ref = c.trec_eval['10.0']?.custom?.per_query ?? {}
      const topics = casesOf(c)
      let compared = 0
      let givenDiffers = 0
      for (const [qid, values] of Object.entries(ref)) {
        const input = topics.get(qid)
        expect(input, qid).toBeDefined()
        if (input === undefined) continue
        const score = { order: 'score' } as const
        const ours: Record<string, number> = {
          recip_rank: reciprocalRank(input, score).value,
          map: averagePrecision(input, undefined, score).value,
          Rprec: rPrecision(input, score).value,
        }
        for (const k of CUTS) {
          ours[`P_${k}`] = precisionAtK(input, k, score).value
          ours[`recall_${k}`] = recallAtK(input, k, score).value
          ours[`ndcg_cut_${k}`] = ndcgAtK(input, k, score).value
          ours[`map_cut_${k}`] = averagePrecision(input, k, score).value
          ours[`success_${k}`] = hitRateAtK(input, k, score).value
        }
        for (const [measure, value] of Object.entries(ours)) {
          expect(Math.abs(value - Number(values[measure])), `${qid} ${measure}: ${value} vs trec_eval ${values[measure]}`).toBeLessThanOrEqual(1e-12)
          compared += 1
        }
        if (Math.abs(averagePrecision(input).value - Number(values.map)) > 1e-12) givenDiffers += 1
      }
      expect(compared).toBeGreaterThan(0)
      // Shows the comparison has teeth: ranked as given (file order), some topic's AP is not trec_eval's.
      if (c.id === 'graded_ties' || c.id === 'random_graded') expect(givenDiffers).toBeGreaterThan(0)
    })
  }
})
