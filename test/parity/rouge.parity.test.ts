// rouge-score 0.1.2 parity: every golden value (score_multi with and without stemming, per reference,
// tokens) and rouge-score's own test cases.
import { readFileSync } from 'node:fs'
import { lcsIndices, lcsLength, rougeLsum, rougeScore, unionLcsIndices, type RougeType } from '../../src/generation/rouge.js'
import { rougeDefaultTokenize } from '../../src/generation/tokenizers/rouge-default.js'
import { MetricInputError } from '../../src/errors.js'
import { fixturePath, loadFixture } from './fixtures/load.js'

type Prf = { p: number; r: number; f: number }
type FourTypes = Record<'rouge1' | 'rouge2' | 'rougeL' | 'rougeLsum', Prf>
type Setting = 'stem' | 'nostem'

interface GoldenCase {
  id: string
  category: string
  hypothesis: string
  references: string[]
  rouge: Record<Setting, FourTypes>
  rouge_per_ref: Record<Setting, FourTypes[]>
  rouge_tokens: Record<Setting, { hyp: string[]; refs: string[][] }>
}

const golden = loadFixture<{ cases: GoldenCase[] }>('generation.json')
const peers = loadFixture<{ cases: any[] }>('rouge_score.json')

const TYPES = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const
const REL = 1e-9

/** |a − e| ≤ 1e-9·|e|; an expected 0 (rouge-score's integer early return) must be exactly 0. */
function relativeMismatch(actual: number, expected: number): boolean {
  if (expected === 0) return actual !== 0
  return !(Math.abs(actual - expected) <= REL * Math.abs(expected))
}

/** unittest `assertAlmostEqual(expected, actual, places)`: round(abs(e − a), places) == 0. */
function almostEqualPlaces(actual: number, expected: number, places: number): boolean {
  return Math.abs(expected - actual) < 0.5 * 10 ** -places
}

describe('ROUGE parity with rouge-score 0.1.2 (golden generation cases)', () => {
  it('has the 300 public cases', () => {
    expect(golden.cases.length).toBe(300)
  })

  describe.each(['stem', 'nostem'] as const)('%s', (setting) => {
    const stemmer = setting === 'stem'

    it(`matches score_multi P, R and F of all four types to 1e-9 (${setting})`, () => {
      const bad: string[] = []
      let compared = 0
      for (const c of golden.cases) {
        const ours = rougeScore(c.hypothesis, c.references, { stemmer })
        for (const type of TYPES) {
          const score = ours[type]
          const want = c.rouge[setting][type]
          if (score === undefined) {
            bad.push(`${c.id} ${type}: missing`)
            continue
          }
          const pairs: Array<[string, number, number]> = [
            ['p', score.details.precision, want.p],
            ['r', score.details.recall, want.r],
            ['f', score.details.fmeasure, want.f],
            ['value', score.value, want.f],
          ]
          for (const [name, a, e] of pairs) {
            compared++
            if (relativeMismatch(a, e)) bad.push(`${c.id} ${type}.${name}: ${a} vs ${e}`)
          }
        }
      }
      expect(bad).toEqual([])
      expect(compared).toBe(300 * 4 * 4)
    })

    it(`matches every per-reference score (${setting})`, () => {
      const bad: string[] = []
      let compared = 0
      for (const c of golden.cases) {
        const ours = rougeScore(c.hypothesis, c.references, { stemmer })
        for (const type of TYPES) {
          const perRef = ours[type]?.details.perReference ?? []
          expect(perRef.length, c.id).toBe(c.references.length)
          c.rouge_per_ref[setting].forEach((want, i) => {
            const got = perRef[i]
            const pairs: Array<[string, number | undefined, number]> = [
              ['p', got?.precision, want[type].p],
              ['r', got?.recall, want[type].r],
              ['f', got?.fmeasure, want[type].f],
            ]
            for (const [name, a, e] of pairs) {
              compared++
              if (a === undefined || relativeMismatch(a, e)) bad.push(`${c.id} ref ${i} ${type}.${name}: ${a} vs ${e}`)
            }
          })
        }
      }
      expect(bad).toEqual([])
      expect(compared).toBeGreaterThan(300 * 4 * 3)
    })

    it(`picks the reference with the highest F, the first on ties (${setting})`, () => {
      for (const c of golden.cases) {
        const ours = rougeScore(c.hypothesis, c.references, { stemmer })
        for (const type of TYPES) {
          const fs = c.rouge_per_ref[setting].map((r) => r[type].f)
          expect(ours[type]?.details.bestReferenceIndex, `${c.id} ${type}`).toBe(fs.indexOf(Math.max(...fs)))
        }
      }
    })

    it(`tokenizes exactly like rouge-score (${setting})`, () => {
      const bad: string[] = []
      for (const c of golden.cases) {
        const want = c.rouge_tokens[setting]
        if (JSON.stringify(rougeDefaultTokenize(c.hypothesis, stemmer)) !== JSON.stringify(want.hyp)) bad.push(`${c.id} hyp`)
        c.references.forEach((ref, i) => {
          if (JSON.stringify(rougeDefaultTokenize(ref, stemmer)) !== JSON.stringify(want.refs[i])) bad.push(`${c.id} ref ${i}`)
        })
      }
      expect(bad).toEqual([])
    })
  })
})

describe("ROUGE parity with rouge-score's own tests", () => {
  const lines = (name: string): string[] =>
    // Python readlines(): every line keeps its '\n'
    readFileSync(fixturePath(`rouge/${name}`), 'utf8').split(/(?<=\n)/)

  const scoreCases = peers.cases.filter((c) => (c.kind === 'score' || c.kind === 'score_multi') && c.passes === true)

  it('has the runnable score and score_multi cases', () => {
    expect(scoreCases.length).toBe(29)
  })

  it.each(scoreCases.map((c) => [c.id, c]))('%s', (_id, c) => {
    const references: string[] = c.kind === 'score_multi' ? c.targets : [c.target]
    const ours = rougeScore(c.prediction, references, { types: c.rouge_types, stemmer: c.use_stemmer ?? false })
    expect(Object.keys(ours).sort()).toEqual([...c.rouge_types].sort())
    for (const type of Object.keys(c.expected) as RougeType[]) {
      const score = ours[type]
      expect(score, type).toBeDefined()
      for (const field of Object.keys(c.expected[type]) as Array<'precision' | 'recall' | 'fmeasure'>) {
        const value = score!.details[field]
        const expected = c.expected[type][field]
        const places = c.places?.[type]?.[field]
        // the peer's own assertion on its literal…
        if (places === undefined) expect(value, `${type}.${field}`).toBe(expected)
        else expect(almostEqualPlaces(value, expected, places), `${type}.${field}: ${value} vs ${expected} (places ${places})`).toBe(true)
        // …and the full-precision value rouge-score returns
        expect(relativeMismatch(value, c.actual[type][field]), `${type}.${field}: ${value} vs actual ${c.actual[type][field]}`).toBe(false)
      }
    }
  })

  it('uses the data files the AgainstRouge155 cases were read from', () => {
    const fromFile = peers.cases.filter((c) => typeof c.target_from === 'string' && c.passes === true)
    expect(fromFile.length).toBeGreaterThan(0)
    for (const c of fromFile) {
      const line = /line (\d+)/.exec(c.target_from)
      if (line) {
        expect(c.target, c.id).toBe(lines('target.txt')[Number(line[1])])
        expect(c.prediction, c.id).toBe(lines('prediction.txt')[Number(/line (\d+)/.exec(c.prediction_from)![1])])
      } else {
        expect(c.target, c.id).toBe(readFileSync(fixturePath('rouge/pyrouge_files/target_multi.0.txt'), 'utf8'))
        expect(c.prediction, c.id).toBe(readFileSync(fixturePath('rouge/pyrouge_files/prediction_multi.0.txt'), 'utf8'))
      }
    }
  })

  it('accepts the valid types and rejects the invalid ones', () => {
    const valid = peers.cases.filter((c) => c.kind === 'valid_type')
    const invalid = peers.cases.filter((c) => c.kind === 'invalid_type')
    expect(valid.length).toBe(4)
    expect(invalid.length).toBe(3)
    for (const c of valid) expect(Object.keys(rougeScore('testing', 'testing one two', { types: c.rouge_types })).sort()).toEqual(c.actual)
    for (const c of invalid) expect(() => rougeScore('testing', 'testing one two', { types: c.rouge_types })).toThrow(MetricInputError)
  })

  it('tokenizes like tokenize.tokenize and DefaultTokenizer', () => {
    const cases = peers.cases.filter((c) => c.kind === 'tokenize')
    expect(cases.length).toBe(4)
    for (const c of cases) {
      const stemmer = c.call.includes('use_stemmer=True')
      expect(rougeDefaultTokenize(c.text, stemmer), c.id).toEqual(c.expected)
      expect(rougeDefaultTokenize(c.text, stemmer), c.id).toEqual(c.actual)
    }
  })

  it('reproduces the LCS helpers (_lcs_table, _backtrack_norec, _union_lcs, _summary_level_lcs)', () => {
    const helpers = peers.cases.filter((c) => c.kind === 'helper')
    let checked = 0
    for (const c of helpers) {
      const fn: string = c.function
      if (fn.startsWith('_lcs_table')) {
        expect(lcsLength(c.ref, c.can), c.id).toBe(c.expected)
      } else if (fn.startsWith('_backtrack_norec')) {
        expect(lcsIndices(c.ref, c.can), c.id).toEqual(c.expected)
      } else if (fn.startsWith('[ref[i] for i in _backtrack_norec')) {
        expect(
          lcsIndices(c.ref, c.can).map((i) => c.ref[i]),
          c.id,
        ).toEqual(c.expected)
      } else if (fn.startsWith('_union_lcs')) {
        expect(
          unionLcsIndices(c.ref, c.c_list).map((i) => c.ref[i]),
          c.id,
        ).toEqual(c.expected)
      } else if (fn.startsWith('_summary_level_lcs')) {
        const ours = rougeLsum(c.can_sents, c.ref_sents)
        expect(ours.recall, c.id).toBe(c.expected.recall)
        if ('precision' in c.expected) expect(ours.precision, c.id).toBe(c.expected.precision)
        if ('fmeasure' in c.expected) expect(almostEqualPlaces(ours.fmeasure, c.expected.fmeasure, 3), c.id).toBe(true)
        expect(ours, c.id).toEqual(c.actual)
      } else {
        // _find_union is a plain sorted set union with no counterpart of its own here
        expect(fn.startsWith('_find_union'), c.id).toBe(true)
        continue
      }
      checked++
    }
    expect(checked).toBe(8)
  })
})
