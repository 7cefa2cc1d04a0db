// METEOR parity with NLTK 3.8 + WordNet 3.0: the golden generation cases and NLTK's own test vectors.
import { meteorScore, singleMeteorScore } from '../../src/generation/meteor.js'
import { loadFixture } from './fixtures/load.js'

interface PerRef {
  score: number
  hyp_len: number
  ref_len: number
  exact_matches: number
  stem_matches: number
  wordnet_matches: number
  matches: Array<[number, number]>
  chunks: number
}

interface GoldenCase {
  id: string
  category: string
  hypothesis: string
  references: string[]
  meteor: number
  meteor_per_ref: PerRef[]
}

interface PeerCase {
  id: string
  call: string
  references: string[][] | string[]
  hypothesis: string[] | string
  expected: number | string
  assertion: string
  actual: number | string
}

const golden = loadFixture<{ cases: GoldenCase[] }>('generation.json')
const peers = loadFixture<{ meteor: PeerCase[] }>('nltk.json')

const REL = 1e-9

function closeRelative(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= REL * Math.abs(expected)
}

/** Python round(x, 4) for the values here (none sits on an exact decimal tie). */
function round4(x: number): number {
  return Number(x.toFixed(4))
}

describe('METEOR parity with NLTK 3.8 (golden generation.json)', () => {
  it('covers all 300 cases and 363 references', () => {
    expect(golden.cases).toHaveLength(300)
    expect(golden.cases.reduce((n, c) => n + c.references.length, 0)).toBe(363)
  })

  it.each(golden.cases.map((c) => [c.id, c] as const))('%s: meteor (max over references) to 1e-9 relative', (_id, c) => {
    const score = meteorScore(c.hypothesis, c.references)
    if (!closeRelative(score.value, c.meteor)) {
      expect.fail(`${c.id} (${c.category}): got ${score.value}, expected ${c.meteor}`)
    }
    expect(score.details.referenceScores).toHaveLength(c.references.length)
    // the reported reference is the first one reaching the maximum, as Python's max() picks
    const perRef = c.meteor_per_ref.map((r) => r.score)
    expect(score.details.bestReferenceIndex).toBe(perRef.indexOf(Math.max(...perRef)))
  })

  it.each(golden.cases.map((c) => [c.id, c] as const))('%s: every reference alignment', (_id, c) => {
    c.references.forEach((reference, k) => {
      const want = c.meteor_per_ref[k] as PerRef
      const got = singleMeteorScore(c.hypothesis, reference).details
      const context = `${c.id} reference ${k}`
      if (!closeRelative(got.score, want.score)) expect.fail(`${context}: score ${got.score}, expected ${want.score}`)
      expect(
        {
          hyp_len: got.candidateLength,
          ref_len: got.referenceLength,
          exact_matches: got.matches.exact,
          stem_matches: got.matches.stem,
          wordnet_matches: got.matches.synonym,
          matches: got.matches.pairs.map((p) => [p.candidate, p.reference]),
          chunks: got.chunks,
        },
        context,
      ).toEqual({
        hyp_len: want.hyp_len,
        ref_len: want.ref_len,
        exact_matches: want.exact_matches,
        stem_matches: want.stem_matches,
        wordnet_matches: want.wordnet_matches,
        matches: want.matches,
        chunks: want.chunks,
      })
    })
  })

  it('exercises every stage (the golden set has stem and WordNet matches)', () => {
    let stem = 0
    let wordnet = 0
    for (const c of golden.cases) {
      for (const r of c.meteor_per_ref) {
        stem += r.stem_matches
        wordnet += r.wordnet_matches
      }
    }
    expect(stem).toBeGreaterThan(0)
    expect(wordnet).toBeGreaterThan(0)
  })
})

describe("METEOR parity with NLTK's own tests (peers nltk.json)", () => {
  const numeric = peers.meteor.filter((c) => typeof c.expected === 'number')
  const typeErrors = peers.meteor.filter((c) => c.expected === 'TypeError')

  it('has the 10 scored and 2 TypeError cases', () => {
    expect(numeric).toHaveLength(10)
    expect(typeErrors).toHaveLength(2)
  })

  it.each(numeric.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const got = meteorScore(c.hypothesis as string[], c.references as string[][]).value
    const expected = c.expected as number
    // the peer's own assertion on its rounded literal
    if (c.assertion === 'round(actual, 4) == expected') expect(round4(got)).toBe(expected)
    else if (c.assertion.startsWith('abs(round(actual, 4) - expected) < 1e-2')) expect(Math.abs(round4(got) - expected)).toBeLessThan(1e-2)
    else if (c.assertion.startsWith('actual == expected')) expect(got).toBe(expected)
    else expect.fail(`unknown assertion ${c.assertion}`)
    // and NLTK's full-precision return value
    expect(closeRelative(got, c.actual as number) || (got === 0 && c.actual === 0)).toBe(true)
  })

  // NLTK refuses strings with TypeError; we define a string as its str.split() (documented), so the
  // same inputs must score as their tokenized form does.
  it.each(typeErrors.map((c) => [c.id, c] as const))('%s: strings are split instead of refused', (_id, c) => {
    const tokensOf = (s: string) => s.split(' ')
    const refs = (c.references as Array<string | string[]>).map((r) => (typeof r === 'string' ? tokensOf(r) : r))
    const hyp = typeof c.hypothesis === 'string' ? tokensOf(c.hypothesis) : c.hypothesis
    const fromTokens = meteorScore(hyp, refs).value
    expect(meteorScore(c.hypothesis, c.references).value).toBe(fromTokens)
    // the test's token inputs score 0.9921875 in NLTK (test_meteor.py::test_meteor)
    expect(fromTokens).toBe(0.9921875)
  })
})
