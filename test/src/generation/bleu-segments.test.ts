// bleuSegments / chrfSegments: one pass gives exactly corpusBleu/corpusChrf and every sentence
// score, and the eval-set form of toScoreBleuAbove / toScoreChrfAbove tokenizes each answer and
// each reference once (also when the failure message builds its per-case table). Vitest only (vi.mock).
import { vi } from 'vitest'
import { MetricInputError } from '../../../src/errors.js'
import { bleuSegments, corpusBleu, sentenceBleu, type BleuOptions, type BleuScore } from '../../../src/generation/bleu.js'
import { chrfSegments, corpusChrf, sentenceChrf, type ChrfOptions, type ChrfScore } from '../../../src/generation/chrf.js'
import type { MatcherContext, MatcherResult } from '../../../matchers/context.js'
import { golden } from '../../parity/golden-generation.js'

// Counting spies around the real functions: the 13a tokenizer (what BLEU's preprocessing calls once
// per text), Python lower() (both metrics, with `lowercase`) and split() (chrF's word n-grams).
vi.mock('../../../src/generation/tokenizers/tokenizer-13a.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/generation/tokenizers/tokenizer-13a.js')>()
  return { ...actual, spans13a: vi.fn(actual.spans13a) }
})
vi.mock('../../../src/text/python-lower.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/text/python-lower.js')>()
  return { ...actual, pyLower: vi.fn(actual.pyLower) }
})
vi.mock('../../../src/text/python-string.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/text/python-string.js')>()
  return { ...actual, pySplit: vi.fn(actual.pySplit) }
})

// The setup file registered the matchers (loading these modules) before the mocks existed: load a
// fresh module graph so that the matchers and metrics below call the spies.
vi.resetModules()
const { spans13a } = await import('../../../src/generation/tokenizers/tokenizer-13a.js')
const { pyLower } = await import('../../../src/text/python-lower.js')
const { pySplit } = await import('../../../src/text/python-string.js')
const { toScoreBleuAbove, toScoreChrfAbove } = await import('../../../matchers/generation.js')

/** The golden inputs with per-case references: the 300 cases as one corpus, and the 11 corpora (nulls dropped). */
const corpora: Array<{ id: string; candidates: string[]; references: string[][] }> = [
  { id: 'cases', candidates: golden.cases.map((c) => c.hypothesis), references: golden.cases.map((c) => c.references) },
  ...golden.corpora.map((c) => ({
    id: c.id,
    candidates: c.hypotheses,
    references: c.hypotheses.map((_, i) => c.references.map((stream) => stream[i]).filter((r): r is string => r !== null && r !== undefined)),
  })),
]

/** sacrebleu's stream layout, as the matcher used to build it: streams[k][i] = k-th reference of case i or null. */
function streams(references: readonly string[][]): Array<Array<string | null>> {
  const width = Math.max(...references.map((r) => r.length))
  return Array.from({ length: width }, (_, k) => references.map((r) => r[k] ?? null))
}

/** Everything a score carries, details through their JSON form (BLEU's lazy unmatched n-grams included). */
function plain(score: BleuScore | ChrfScore): unknown {
  return { metric: score.metric, value: score.value, signature: score.signature, details: JSON.parse(JSON.stringify(score.details)) }
}

const BLEU_VARIANTS: Array<BleuOptions | undefined> = [
  undefined,
  { tokenize: 'intl' },
  { tokenize: 'char' },
  { tokenize: 'none' },
  { lowercase: true },
  { effectiveOrder: false },
  { effectiveOrder: true },
  { smooth: 'floor' },
  { smooth: 'add-k', smoothValue: 2 },
  { smooth: 'none' },
  { maxNgramOrder: 2 },
  { tokenize: 'intl', lowercase: true, smooth: 'floor', smoothValue: 0.2 },
]

const CHRF_VARIANTS: Array<ChrfOptions | undefined> = [
  undefined,
  { wordOrder: 2 },
  { lowercase: true },
  { epsSmoothing: true },
  { beta: 3 },
  { keepWhitespace: true },
  { charOrder: 3, wordOrder: 1 },
  { charOrder: 0, wordOrder: 2 },
]

describe('bleuSegments', () => {
  it.each(BLEU_VARIANTS.map((o) => [JSON.stringify(o) ?? 'defaults', o] as const))(
    'equals corpusBleu and sentenceBleu bit for bit on the golden inputs (%s)',
    (_label, options) => {
      for (const c of corpora) {
        const { corpus, segments } = bleuSegments(c.candidates, c.references, options)
        expect(plain(corpus), c.id).toEqual(plain(corpusBleu(c.candidates, streams(c.references), options)))
        expect(Object.is(corpus.value, corpusBleu(c.candidates, streams(c.references), options).value)).toBe(true)
        expect(segments).toHaveLength(c.candidates.length)
        c.candidates.forEach((candidate, i) => {
          const want = sentenceBleu(candidate, c.references[i]!, options)
          expect(Object.is(segments[i]!.value, want.value), `${c.id}[${i}]`).toBe(true)
          expect(plain(segments[i]!), `${c.id}[${i}]`).toEqual(plain(want))
        })
      }
    },
  )

  it('reads the unmatched n-grams of the corpus as corpusBleu collects them, also after the segments were read', () => {
    const c = corpora[0]!
    const { corpus, segments } = bleuSegments(c.candidates, c.references)
    // reading segment details first must not disturb the corpus collector (and vice versa)
    const segmentUnmatched = segments.map((s) => s.details.unmatchedNgrams)
    expect(corpus.details.unmatchedNgrams).toEqual(corpusBleu(c.candidates, streams(c.references)).details.unmatchedNgrams)
    expect(segmentUnmatched).toEqual(c.candidates.map((cand, i) => sentenceBleu(cand, c.references[i]!).details.unmatchedNgrams))
  })

  it("prints nrefs as the per-case count or 'var', and the sentence signatures per case", () => {
    const { corpus, segments } = bleuSegments(['a b', 'c d'], [['a b'], ['c d', 'c e']])
    expect(corpus.signature).toContain('nrefs:var|case:mixed|eff:no|')
    expect(segments[0]!.signature).toContain('nrefs:1|case:mixed|eff:yes|')
    expect(segments[1]!.signature).toContain('nrefs:2|case:mixed|eff:yes|')
    expect(bleuSegments(['a'], [['a', 'b']]).corpus.signature).toContain('nrefs:2|')
  })

  it('gives the documented example values', () => {
    const { corpus, segments } = bleuSegments(
      ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.'],
      [
        ['The dog bit the man.', 'The dog had bit the man.'],
        ['It was not unexpected.', 'No one was surprised.'],
        ['The man bit him first.', 'The man had bitten the dog.'],
      ],
    )
    expect(corpus.value).toBe(48.530827009929865)
    expect(segments[0]!.value).toBe(100.00000000000004)
    expect(segments[0]!.value).toBe(sentenceBleu('The dog bit the man.', ['The dog bit the man.', 'The dog had bit the man.']).value)
  })

  it('rejects bad arguments and option keys with MetricInputError', () => {
    const bad: Array<() => unknown> = [
      () => bleuSegments([], []),
      () => bleuSegments('a' as never, [['a']]),
      () => bleuSegments(['a', 1 as never], [['a'], ['b']]),
      () => bleuSegments(['a'], [['a'], ['b']]),
      () => bleuSegments(['a'], 'a' as never),
      () => bleuSegments(['a'], [[]]),
      () => bleuSegments(['a'], ['a' as never]),
      () => bleuSegments(['a'], [[null as never]]),
      () => bleuSegments(['a'], [['a']], { tokenizer: '13a' } as never),
      () => bleuSegments(['a'], [['a']], { maxNgramOrder: 0 }),
      () => bleuSegments(['a'], [['a']], 'x' as never),
    ]
    for (const call of bad) expect(call).toThrow(MetricInputError)
    expect(() => bleuSegments(['a'], [['a']], { tokenizer: '13a' } as never)).toThrow(/bleuSegments.*tokenizer/)
  })
})

describe('chrfSegments', () => {
  it.each(CHRF_VARIANTS.map((o) => [JSON.stringify(o) ?? 'defaults', o] as const))(
    'equals corpusChrf and sentenceChrf bit for bit on the golden inputs (%s)',
    (_label, options) => {
      for (const c of corpora) {
        const { corpus, segments } = chrfSegments(c.candidates, c.references, options)
        expect(plain(corpus), c.id).toEqual(plain(corpusChrf(c.candidates, streams(c.references), options)))
        expect(Object.is(corpus.value, corpusChrf(c.candidates, streams(c.references), options).value)).toBe(true)
        c.candidates.forEach((candidate, i) => {
          const want = sentenceChrf(candidate, c.references[i]!, options)
          expect(Object.is(segments[i]!.value, want.value), `${c.id}[${i}]`).toBe(true)
          expect(plain(segments[i]!), `${c.id}[${i}]`).toEqual(plain(want))
        })
      }
    },
  )

  it('gives the documented example values', () => {
    const { corpus, segments } = chrfSegments(['abcdefg', 'abc'], [['hijklmnop'], ['abc', 'x']], { beta: 3 })
    expect(segments[0]!.value).toBe(0)
    expect(segments[1]!.details.bestReference).toBe(0)
    expect(corpus.details.bestReferences).toEqual([0, 0])
  })

  it('equals corpusChrf on the original streams too (value and signature; nulls only renumber bestReferences)', () => {
    for (const c of golden.corpora) {
      const references = c.hypotheses.map((_, i) => c.references.map((s) => s[i]).filter((r): r is string => typeof r === 'string'))
      const ours = chrfSegments(c.hypotheses, references, { wordOrder: 2 }).corpus
      const theirs = corpusChrf(c.hypotheses, c.references, { wordOrder: 2 })
      expect(Object.is(ours.value, theirs.value)).toBe(true)
      expect(ours.signature).toBe(theirs.signature)
    }
  })

  it('rejects bad arguments and option keys with MetricInputError', () => {
    expect(() => chrfSegments([], [])).toThrow(MetricInputError)
    expect(() => chrfSegments(['a'], [['a'], ['b']])).toThrow(MetricInputError)
    expect(() => chrfSegments(['a'], [[]])).toThrow(MetricInputError)
    expect(() => chrfSegments(['a'], [[3 as never]])).toThrow(MetricInputError)
    expect(() => chrfSegments(['a'], [['a']], { wordorder: 2 } as never)).toThrow(/chrfSegments.*wordorder/)
  })
})

// ---------------------------------------------------------------- tokenizer calls of the matcher's set form

const utils = { matcherHint: (name: string) => `expect(received).${name}()`, printReceived: (v: unknown) => String(v), printExpected: (v: unknown) => String(v) }
const ctx = (): MatcherContext => ({ isNot: false, promise: '', utils }) as unknown as MatcherContext

/** N cases with 1–3 references each (distinct texts, so nothing could be shared by accident). */
function evalSet(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const answer = `Answer ${i}: the model reached ${i % 7} points on task ${i}.`
    const references = Array.from({ length: 1 + (i % 3) }, (_, k) => `Reference ${k} of case ${i}: the model scored ${k + i} on task ${i}.`)
    return i % 2 === 0 && references.length === 1 ? { id: `c${i}`, answer, reference: references[0]! } : { id: `c${i}`, answer, references }
  })
}

function textsOf(set: ReturnType<typeof evalSet>): { answers: number; references: number } {
  return { answers: set.length, references: set.reduce((a, c) => a + ('references' in c ? c.references.length : 1), 0) }
}

describe('eval-set toScoreBleuAbove / toScoreChrfAbove: each text is preprocessed once', () => {
  beforeEach(() => {
    vi.mocked(spans13a).mockClear()
    vi.mocked(pyLower).mockClear()
    vi.mocked(pySplit).mockClear()
  })

  it.each([1, 7, 40])('BLEU over %i cases calls the 13a tokenizer once per answer and once per reference, message included', (n) => {
    const set = evalSet(n)
    const { answers, references } = textsOf(set)
    const result = toScoreBleuAbove.call(ctx(), set, 99) as MatcherResult
    expect(result.pass).toBe(false)
    const message = result.message()
    // the per-case table was built (its sentence BLEU values come from the same statistics)
    expect(message).toContain(`sentence BLEU per answer`)
    expect(message).toContain(`${n} of ${n} below 99.00`)
    expect(message).toContain(`corpus BLEU over ${n} answers`)
    expect(vi.mocked(spans13a)).toHaveBeenCalledTimes(answers + references)
    // each text exactly once: the calls' arguments are the answers and references themselves
    const seen = vi.mocked(spans13a).mock.calls.map(([text]) => text)
    expect(new Set(seen).size).toBe(answers + references)
  })

  it('BLEU with lowercase: Python lower() once per answer and once per reference', () => {
    const set = evalSet(12)
    const { answers, references } = textsOf(set)
    ;(toScoreBleuAbove.call(ctx(), set, 99, { lowercase: true }) as MatcherResult).message()
    expect(vi.mocked(spans13a)).toHaveBeenCalledTimes(answers + references)
    expect(vi.mocked(pyLower)).toHaveBeenCalledTimes(answers + references)
  })

  it('chrF++ with lowercase: lower() and the word split once per answer and once per reference, message included', () => {
    const set = evalSet(12)
    const { answers, references } = textsOf(set)
    const result = toScoreChrfAbove.call(ctx(), set, 99, { wordOrder: 2, lowercase: true }) as MatcherResult
    expect(result.pass).toBe(false)
    expect(result.message()).toContain('sentence chrF per answer')
    expect(vi.mocked(pyLower)).toHaveBeenCalledTimes(answers + references)
    expect(vi.mocked(pySplit)).toHaveBeenCalledTimes(answers + references)
  })

  it('the per-case table shows the sentence scores and the headline the corpus score', () => {
    const set = evalSet(5)
    const message = (toScoreBleuAbove.call(ctx(), set, 99) as MatcherResult).message()
    const cands = set.map((c) => c.answer)
    const refs = set.map((c) => ('references' in c ? c.references : [c.reference]))
    expect(message).toContain(corpusBleu(cands, streams(refs)).value.toFixed(2))
    for (let i = 0; i < set.length; i++) expect(message).toMatch(new RegExp(`c${i}\\s+${sentenceBleu(cands[i]!, refs[i]!).value.toFixed(2).replace('.', '\\.')}`))
  })
})
