// METEOR on long input: the indexed matching stages must give exactly NLTK's alignment. The oracle
// is NLTK 3.8's `_enum_align_words` procedure written out with its list pops (quadratic), on top of
// the library's Porter stemmer and WordNet synonyms, which have their own parity tests.
import { meteorScore } from '../../../src/generation/meteor.js'
import { porterStem } from '../../../src/generation/stemmers/porter.js'
import { synonyms } from '../../../src/generation/wordnet.js'
// the library's seeded PRNG, so every generated case can be replayed
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'

type Pair = [number, number]

/** NLTK's exact / stem / synonym loops over enumerated word lists, popping what is aligned. */
function oracleAlign(hyp: string[], ref: string[]): { pairs: Pair[]; stages: [number, number, number] } {
  let h: Array<[number, string]> = hyp.map((w, i) => [i, w])
  let r: Array<[number, string]> = ref.map((w, j) => [j, w])
  const pairs: Pair[] = []
  const stage = (same: (a: string, b: string) => boolean): number => {
    let count = 0
    for (let i = h.length - 1; i >= 0; i--) {
      for (let j = r.length - 1; j >= 0; j--) {
        const hi = h[i] as [number, string]
        const rj = r[j] as [number, string]
        if (same(hi[1], rj[1])) {
          pairs.push([hi[0], rj[0]])
          h.splice(i, 1)
          r.splice(j, 1)
          count++
          break
        }
      }
    }
    return count
  }
  const exact = stage((a, b) => a === b)
  h = h.map(([i, w]) => [i, porterStem(w)])
  r = r.map(([j, w]) => [j, porterStem(w)])
  const stem = stage((a, b) => a === b)
  const synonym = stage((a, b) => a === b || synonyms(a).has(b))
  pairs.sort((x, y) => x[0] - y[0])
  return { pairs, stages: [exact, stem, synonym] }
}

function oracleChunks(pairs: readonly Pair[]): number {
  if (pairs.length === 0) return 0
  let chunks = 1
  for (let k = 0; k + 1 < pairs.length; k++) {
    const [a, b] = pairs[k] as Pair
    const [c, d] = pairs[k + 1] as Pair
    if (!(c === a + 1 && d === b + 1)) chunks++
  }
  return chunks
}

// function words, inflected forms (stem stage) and WordNet synonym pairs (synonym stage)
const WORDS = (
  'the a of to in and is was for on with by as at from that this it ' +
  'model models modeling train training trained run running runs improve improves improved ' +
  'big large huge car automobile buy purchase rich wealthy error mistake help assist kid child ' +
  'ill sick close shut difficult hard quick fast begin start reduce decrease small little ' +
  // clusters whose stems are each other's WordNet synonyms: several reference words qualify at once
  'kid child minor tyke nipper shaver youngster tough firm speedy nimble auto machine motorcar'
).split(' ')

function text(seed: number, tokens: number): string[] {
  const rand = random(seed)
  return Array.from({ length: tokens }, () => WORDS[Math.floor(WORDS.length * rand() ** 1.7)] as string)
}

describe('meteorScore alignment on long texts equals NLTK’s quadratic procedure', () => {
  it.each([
    [5, 60, 55],
    [2, 300, 280],
    [3, 1500, 1700],
  ])('seed %i: %i vs %i tokens', (seed, n, m) => {
    const hyp = text(seed, n)
    const ref = text(seed + 100, m)
    const want = oracleAlign(hyp, ref)
    const got = meteorScore(hyp.join(' '), ref.join(' ')).details
    expect(got.matches.pairs.map((p) => [p.candidate, p.reference])).toEqual(want.pairs)
    expect([got.matches.exact, got.matches.stem, got.matches.synonym]).toEqual(want.stages)
    expect(got.chunks).toBe(oracleChunks(want.pairs))
    // the synonym stage must have had work to do for this test to mean anything
    expect(want.stages[2]).toBeGreaterThan(0)
    const mCount = want.pairs.length
    const precision = mCount / n
    const recall = mCount / m
    const fmean = (precision * recall) / (0.9 * precision + 0.1 * recall)
    const expected = (1 - 0.5 * (oracleChunks(want.pairs) / mCount) ** 3) * fmean
    expect(got.score).toBeCloseTo(expected, 12)
  })

  // short texts (every eval set's case) take the same list-based stages: checked against the oracle on many seeds
  it('equals it on 300 short random pairs, duplicates and all', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const hyp = text(seed, 1 + (seed % 23))
      const ref = text(seed + 1000, 1 + ((seed * 7) % 29))
      const want = oracleAlign(hyp, ref)
      const got = meteorScore(hyp.join(' '), ref.join(' ')).details
      expect(got.matches.pairs.map((p) => [p.candidate, p.reference])).toEqual(want.pairs)
      expect([got.matches.exact, got.matches.stem, got.matches.synonym]).toEqual(want.stages)
    }
  })

  it('aligns two 100,000-token texts (the synonym stage used to scan the reference per word)', () => {
    // (speed is measured in bench/long-inputs.mjs; here: it finishes and is consistent)
    const hyp = text(11, 100_000)
    const ref = text(12, 100_000)
    const got = meteorScore(hyp.join(' '), ref.join(' ')).details
    const { exact, stem, synonym, pairs } = got.matches
    expect(pairs.length).toBe(exact + stem + synonym)
    expect(synonym).toBeGreaterThan(0)
    expect(new Set(pairs.map((p) => p.reference)).size).toBe(pairs.length)
  })
})
