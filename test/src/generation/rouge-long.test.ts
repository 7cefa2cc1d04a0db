// ROUGE-L / ROUGE-Lsum on long input: the bit-parallel kernels must give exactly the LCS length
// and exactly rouge-score's backtrack path, against the quadratic full-table oracle (lcs-oracle.ts).
import { MetricInputError } from '../../../src/errors.js'
import { lcsLengthBits, lcsLengthOf, lcsPathBits, lcsPathOf, lcsPathRows, SMALL_LCS_CELLS } from '../../../src/generation/lcs.js'
import { oraclePath } from './lcs-oracle.js'
import { rougeScore } from '../../../src/generation/rouge.js'
import { rougeDefaultTokenize } from '../../../src/generation/tokenizers/rouge-default.js'
// the library's seeded PRNG, so every generated case can be replayed
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'

/** Sequences over a tiny alphabet (many ties), with runs of one token (long carry chains). */
function sequence(rand: () => number, length: number, alphabet: number): number[] {
  const out: number[] = []
  while (out.length < length) {
    const token = Math.floor(rand() * alphabet)
    const run = rand() < 0.2 ? 1 + Math.floor(rand() * 40) : 1
    for (let k = 0; k < run && out.length < length; k++) out.push(token)
  }
  return out
}

const ids = (xs: readonly number[]): Int32Array => Int32Array.from(xs)

describe('bit-parallel LCS against the quadratic oracle', () => {
  it('gives the same length and the same rouge-score path on 3,000 random small pairs with many ties', () => {
    const rand = random(20261202)
    const bad: string[] = []
    for (let trial = 0; trial < 3000; trial++) {
      // lengths straddle the 32-bit word boundaries: 0..130
      const ref = sequence(rand, Math.floor(rand() * 131), 1 + Math.floor(rand() * 4))
      const can = sequence(rand, Math.floor(rand() * 131), 1 + Math.floor(rand() * 4))
      const want = oraclePath(ref, can)
      const length = lcsLengthBits(ids(ref), ids(can))
      const path: number[] = []
      lcsPathBits(ids(ref), ids(can), path)
      if (length !== want.length || path.join(',') !== want.join(',')) {
        bad.push(`ref=${ref.join('')} can=${can.join('')}: length ${length}, path ${path.join(',')} vs ${want.join(',')}`)
        if (bad.length > 5) break
      }
    }
    expect(bad).toEqual([])
  })

  it('appends to a non-empty output like the small-pairs kernel', () => {
    const ref = ids([1, 2, 3, 4, 5])
    const can = ids([2, 5, 3, 4])
    const viaRows = [7]
    const viaBits = [7]
    lcsPathRows(ref, can, viaRows)
    lcsPathBits(ref, can, viaBits)
    expect(viaBits).toEqual([7, 1, 2, 3])
    expect(viaRows).toEqual(viaBits)
  })

  it('agrees with the oracle on pairs large enough for the bit-parallel dispatch (realistic vocabulary)', () => {
    const rand = random(7)
    // Zipf-like ids: a few very frequent tokens, a long tail
    const zipf = (n: number) => Array.from({ length: n }, () => Math.floor(1 / (rand() + 0.002)) % 700)
    for (const [n, m] of [
      [1100, 1000],
      [1500, 1499],
    ] as const) {
      const ref = zipf(n)
      const can = zipf(m)
      expect(n * m).toBeGreaterThan(SMALL_LCS_CELLS)
      const want = oraclePath(ref, can)
      const path: number[] = []
      lcsPathOf(ids(ref), ids(can), path)
      expect(path).toEqual(want)
      expect(lcsLengthOf(ids(ref), ids(can))).toBe(want.length)
    }
  })

  it('handles empty sides and ids that occur on one side only', () => {
    expect(lcsLengthBits(ids([]), ids([1, 2]))).toBe(0)
    expect(lcsLengthBits(ids([1, 2]), ids([]))).toBe(0)
    expect(lcsLengthBits(ids([9, 9, 9]), ids([1, 2]))).toBe(0)
    const out: number[] = []
    lcsPathBits(ids([900, 1, 901]), ids([1]), out)
    expect(out).toEqual([1])
  })
})

// a deterministic English-like text: Zipf-distributed words, sentences of 8–30 words
const WORDS = (
  'the of and to a in is that for it as was with be by on not he this are or his from at which but have an they ' +
  'model data results training method system paper study approach network value score task performance language ' +
  'large small new different first better high low result work time number based using show given used'
).split(' ')

function englishLike(seed: number, tokens: number, newlines: boolean): string {
  const rand = random(seed)
  const parts: string[] = []
  const sentenceLength = () => 8 + Math.floor(rand() * 23)
  let left = sentenceLength()
  for (let k = 0; k < tokens; k++) {
    const word = WORDS[Math.floor(WORDS.length * rand() ** 2.5)] as string
    parts.push(word)
    if (--left === 0) {
      parts.push(newlines ? '.\n' : '.')
      left = sentenceLength()
    } else {
      parts.push(' ')
    }
  }
  return parts.join('')
}

function oracleRougeL(candidate: string, reference: string) {
  const vocab = new Map<string, number>()
  const toIds = (tokens: string[]) => tokens.map((t) => vocab.get(t) ?? (vocab.set(t, vocab.size), vocab.size - 1))
  const refTokens = rougeDefaultTokenize(reference)
  const ref = toIds(refTokens)
  const can = toIds(rougeDefaultTokenize(candidate))
  const path = oraclePath(ref, can)
  const inPath = new Set(path)
  const missed = refTokens.filter((_, i) => !inPath.has(i))
  return { lcs: path.length, precision: path.length / can.length, recall: path.length / ref.length, missed }
}

describe('rougeScore on long texts', () => {
  it('ROUGE-L and one-line ROUGE-Lsum equal the oracle on 1,200-token texts (bit-parallel path)', () => {
    const candidate = englishLike(1, 1200, false)
    const reference = englishLike(2, 1200, false)
    const want = oracleRougeL(candidate, reference)
    const got = rougeScore(candidate, reference, { types: ['rougeL', 'rougeLsum'] })
    for (const type of ['rougeL', 'rougeLsum'] as const) {
      const details = got[type]?.details
      expect(details?.matchCount).toBe(want.lcs)
      expect(details?.precision).toBe(want.precision)
      expect(details?.recall).toBe(want.recall)
      expect(details?.missedReferenceTokenCount).toBe(want.missed.length)
      expect(details?.missedReferenceTokens).toEqual(want.missed.slice(0, 20))
    }
  })

  it('ROUGE-Lsum over many lines equals the per-line oracle union', () => {
    const candidate = englishLike(3, 1500, true)
    const reference = englishLike(4, 1500, true)
    const got = rougeScore(candidate, reference, { types: ['rougeLsum'] }).rougeLsum?.details
    // rouge-score _summary_level_lcs: union of per-line paths, hits clipped by remaining counts
    const vocab = new Map<string, number>()
    const lineIds = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => rougeDefaultTokenize(l).map((t) => vocab.get(t) ?? (vocab.set(t, vocab.size), vocab.size - 1)))
    const candLines = lineIds(candidate)
    const refLines = lineIds(reference)
    const cc = new Map<number, number>()
    const cr = new Map<number, number>()
    for (const l of candLines) for (const t of l) cc.set(t, (cc.get(t) ?? 0) + 1)
    for (const l of refLines) for (const t of l) cr.set(t, (cr.get(t) ?? 0) + 1)
    let hits = 0
    for (const r of refLines) {
      const union = new Set<number>()
      for (const c of candLines) for (const i of oraclePath(r, c)) union.add(i)
      for (const i of [...union].sort((a, b) => a - b)) {
        const t = r[i] as number
        if ((cc.get(t) ?? 0) > 0 && (cr.get(t) ?? 0) > 0) {
          hits++
          cc.set(t, (cc.get(t) as number) - 1)
          cr.set(t, (cr.get(t) as number) - 1)
        }
      }
    }
    expect(got?.matchCount).toBe(hits)
    expect(hits).toBeGreaterThan(0)
  })

  it('scores two 30,000-token texts without building a quadratic table', () => {
    const candidate = englishLike(5, 30_000, false)
    const reference = englishLike(6, 30_000, false)
    // the old kernel allocated a 30,001² Int32 table (≈ 3.6 GB) here
    const got = rougeScore(candidate, reference, { types: ['rougeL', 'rougeLsum'] })
    const [can, ref] = oracleIds(candidate, reference)
    const length = lcsLengthOf(ids(ref), ids(can))
    expect(length).toBeGreaterThan(5_000)
    expect(got.rougeL?.details.matchCount).toBe(length)
    expect(got.rougeLsum?.details.matchCount).toBe(length)
    expect(got.rougeL?.details.missedReferenceTokenCount).toBe(ref.length - length)
  })

  it('still refuses bad input with MetricInputError', () => {
    expect(() => rougeScore(englishLike(1, 10, false), [])).toThrow(MetricInputError)
  })
})

/** [candidate ids, reference ids] over one shared vocabulary. */
function oracleIds(candidate: string, reference: string): [number[], number[]] {
  const vocab = new Map<string, number>()
  const toIds = (tokens: string[]) => tokens.map((t) => vocab.get(t) ?? (vocab.set(t, vocab.size), vocab.size - 1))
  return [toIds(rougeDefaultTokenize(candidate)), toIds(rougeDefaultTokenize(reference))]
}
