// sacrebleu 2.6.0 TER parity: every golden case under every option combination (score, num_edits,
// ref_length, tokenized strings, signatures) and every corpus. Fixture: fixtures/sacrebleu-extra/ter.json
// (the `ter` section of shared/golden/public/sacrebleu_extra.json, see fixtures/sacrebleu-extra/ter-zh.PROVENANCE.md).
import { MetricInputError } from '../../src/errors.js'
import { corpusTer, sentenceTer, terSegments, type TerOptions } from '../../src/generation/ter/ter.js'
import { tokenizeTercom, type TercomSettings } from '../../src/generation/ter/tokenizer-tercom.js'
import { pyRstrip } from '../../src/text/python-string.js'
import { VERSION } from '../../src/version.js'
import { loadFixture } from './fixtures/load.js'

interface Want {
  score: number
  num_edits: number
  ref_length: number
}
interface Combo {
  kwargs: { normalized?: boolean; no_punct?: boolean; asian_support?: boolean; case_sensitive?: boolean }
  signature_1ref: string
  signature_2ref: string
}
interface Case {
  id: string
  category: string
  hypothesis: string
  references: string[]
  ter: Record<string, Want>
  tokenized: Record<string, { hyp: string; refs: string[] }>
}
interface Corpus {
  id: string
  hypotheses: string[]
  references: Array<Array<string | null>>
  ter: Record<string, Want & { signature: string }>
}

const golden = loadFixture<{ meta: { provenance: { sacrebleu_version: string } }; ter: { combos: Record<string, Combo>; cases: Case[]; corpora: Corpus[] } }>(
  'sacrebleu-extra/ter.json',
)
const { combos, cases, corpora } = golden.ter
const comboNames = Object.keys(combos)

/** sacrebleu's keyword arguments in our option names. */
function optionsOf(kwargs: Combo['kwargs']): TerOptions {
  const out: { -readonly [K in keyof TerOptions]: TerOptions[K] } = {}
  if (kwargs.normalized !== undefined) out.normalized = kwargs.normalized
  if (kwargs.no_punct !== undefined) out.noPunct = kwargs.no_punct
  if (kwargs.asian_support !== undefined) out.asianSupport = kwargs.asian_support
  if (kwargs.case_sensitive !== undefined) out.caseSensitive = kwargs.case_sensitive
  return out
}

function settingsOf(kwargs: Combo['kwargs']): TercomSettings {
  return {
    normalized: kwargs.normalized === true,
    noPunct: kwargs.no_punct === true,
    asianSupport: kwargs.asian_support === true,
    caseSensitive: kwargs.case_sensitive === true,
  }
}

/**
 * Our signature in sacrebleu's form: sacrebleu prints no metric name and its own version; ours
 * starts with `TER|` and ends with this library's version (the BLEU signatures do the same).
 */
function asSacrebleu(signature: string): string {
  const prefix = 'TER|'
  const suffix = `|version:${VERSION}`
  if (!signature.startsWith(prefix) || !signature.endsWith(suffix)) return `unexpected form: ${signature}`
  return `${signature.slice(prefix.length, -suffix.length)}|version:${golden.meta.provenance.sacrebleu_version}`
}

/** Exact comparison of one result with sacrebleu's numbers (the tolerance the golden README states for TER). */
function mismatches(label: string, got: { score: number; numEdits: number; refLength: number }, want: Want): string[] {
  const bad: string[] = []
  if (!Object.is(got.score, want.score)) bad.push(`${label} score: ${got.score} vs ${want.score}`)
  if (got.numEdits !== want.num_edits) bad.push(`${label} num_edits: ${got.numEdits} vs ${want.num_edits}`)
  if (got.refLength !== want.ref_length) bad.push(`${label} ref_length: ${got.refLength} vs ${want.ref_length}`)
  return bad
}

describe('sacrebleu 2.6.0 parity: TER', () => {
  it('has the 155 cases, 10 corpora and 9 option combinations', () => {
    expect(cases).toHaveLength(155)
    expect(corpora).toHaveLength(10)
    expect(comboNames).toHaveLength(9)
    // every case and corpus carries every combination
    for (const c of cases) expect(Object.keys(c.ter).sort()).toEqual([...comboNames].sort())
    for (const c of corpora) expect(Object.keys(c.ter).sort()).toEqual([...comboNames].sort())
  })

  it('tokenizes every hypothesis and reference exactly like TercomTokenizer under every combination', () => {
    const bad: string[] = []
    let compared = 0
    for (const c of cases) {
      for (const name of comboNames) {
        const settings = settingsOf(combos[name]!.kwargs)
        const want = c.tokenized[name]!
        expect(want.refs).toHaveLength(c.references.length)
        const pairs: Array<[string, string]> = [[c.hypothesis, want.hyp], ...c.references.map((r, i): [string, string] => [r, want.refs[i]!])]
        for (const [text, expected] of pairs) {
          compared++
          // the golden strings are `TercomTokenizer(**kwargs)(s.rstrip())`
          const got = tokenizeTercom(pyRstrip(text), settings)
          if (got !== expected) bad.push(`${c.id} ${name}: ${JSON.stringify(got)} vs ${JSON.stringify(expected)}`)
        }
      }
    }
    expect(bad).toEqual([])
    expect(compared).toBe(9 * cases.reduce((n, c) => n + 1 + c.references.length, 0))
  })

  it('matches sentence TER (score, num_edits, ref_length) on every case under every combination', () => {
    const bad: string[] = []
    let compared = 0
    for (const c of cases) {
      for (const name of comboNames) {
        compared++
        bad.push(...mismatches(`${c.id} ${name}`, sentenceTer(c.hypothesis, c.references, optionsOf(combos[name]!.kwargs)), c.ter[name]!))
      }
    }
    expect(bad).toEqual([])
    expect(compared).toBe(155 * 9)
  })

  it("prints sacrebleu's signature for every combination, with 1 and 2 references", () => {
    const bad: string[] = []
    for (const name of comboNames) {
      const combo = combos[name]!
      const options = optionsOf(combo.kwargs)
      const one = sentenceTer('a b', 'a c', options).signature
      const two = sentenceTer('a b', ['a c', 'b'], options).signature
      if (asSacrebleu(one) !== combo.signature_1ref) bad.push(`${name} 1 ref: ${one} vs ${combo.signature_1ref}`)
      if (asSacrebleu(two) !== combo.signature_2ref) bad.push(`${name} 2 refs: ${two} vs ${combo.signature_2ref}`)
    }
    expect(bad).toEqual([])
    expect(sentenceTer('a', 'a').signature).toBe(`TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:${VERSION}`)
  })

  it('matches corpus TER and its signature on every corpus under every combination (incl. a missing reference → nrefs:var)', () => {
    const bad: string[] = []
    let compared = 0
    for (const corpus of corpora) {
      for (const name of comboNames) {
        compared++
        const want = corpus.ter[name]!
        const got = corpusTer(corpus.hypotheses, corpus.references, optionsOf(combos[name]!.kwargs))
        bad.push(...mismatches(`${corpus.id} ${name}`, got, want))
        if (asSacrebleu(got.signature) !== want.signature) bad.push(`${corpus.id} ${name} signature: ${got.signature} vs ${want.signature}`)
        expect(got.bestReference).toHaveLength(corpus.hypotheses.length)
      }
    }
    expect(bad).toEqual([])
    expect(compared).toBe(10 * 9)
    expect(corpora.some((c) => c.references.some((s) => s.includes(null)))).toBe(true)
  })

  it('terSegments gives the corpus score and each sentence score of the same segments', () => {
    const bad: string[] = []
    for (const corpus of corpora.filter((c) => c.references.every((s) => !s.includes(null)))) {
      const perSegment = corpus.hypotheses.map((_, i) => corpus.references.map((s) => s[i] as string))
      for (const name of comboNames) {
        const options = optionsOf(combos[name]!.kwargs)
        const { corpus: whole, segments } = terSegments(corpus.hypotheses, perSegment, options)
        bad.push(...mismatches(`${corpus.id} ${name} corpus`, whole, corpus.ter[name]!))
        segments.forEach((s, i) => {
          const direct = sentenceTer(corpus.hypotheses[i]!, perSegment[i]!, options)
          if (JSON.stringify(s) !== JSON.stringify(direct)) bad.push(`${corpus.id} ${name} #${i}: ${JSON.stringify(s)} vs ${JSON.stringify(direct)}`)
        })
      }
    }
    expect(bad).toEqual([])
  })

  it('reproduces the documented corners: empty sides, average reference length, block moves', () => {
    const byId = (id: string) => cases.find((c) => c.id === id)!
    // empty reference, non-empty hypothesis → 100; both empty → 0
    expect(sentenceTer(byId('ter-145').hypothesis, byId('ter-145').references)).toMatchObject({ score: 100, refLength: 0 })
    expect(sentenceTer('', '')).toMatchObject({ score: 0, numEdits: 0, refLength: 0 })
    // ref_length is the mean over references, not the best one's length
    expect(sentenceTer('a b c', ['a b c', 'a b c d e'])).toMatchObject({ numEdits: 0, refLength: 4, score: 0, bestReference: 0 })
    expect(sentenceTer('a b c', ['x y', 'a b c'])).toMatchObject({ bestReference: 1 })
    // a 52-word block move costs one shift, not dozens of edits
    const move = byId('ter-141')
    expect(sentenceTer(move.hypothesis, move.references).numEdits).toBe(move.ter.default!.num_edits)
    expect(move.ter.default!.num_edits).toBeLessThan(10)
  })
})

describe('TER input checks (MetricInputError naming the argument)', () => {
  it.each([
    ['a non-string candidate', () => sentenceTer(42 as unknown as string, 'a'), /sentenceTer: Expected `candidate` to be a string, got `42` \(number\)/],
    ['no references', () => sentenceTer('a', []), /sentenceTer: Expected `references` to be a string or a non-empty array of strings/],
    ['a non-string reference', () => sentenceTer('a', ['b', 3 as unknown as string]), /Expected `references\[1\]` to be a string/],
    [
      'an unknown option',
      () => sentenceTer('a', 'a', { normalised: true } as TerOptions),
      /Expected `options.normalised` to be not set \(unknown option 'normalised' — did you mean 'normalized'\?\)/,
    ],
    ['a non-boolean option', () => sentenceTer('a', 'a', { noPunct: 1 as unknown as boolean }), /Expected `options.noPunct` to be a boolean, got `1` \(number\)/],
    ['options that are not an object', () => corpusTer(['a'], [['a']], 'yes' as TerOptions), /corpusTer: Expected `options` to be an options object/],
    ['a stream of the wrong length', () => corpusTer(['a', 'b'], [['a']]), /corpusTer: Expected `referenceStreams\[0\]` to be an array of 2 entries/],
    ['a segment without any reference', () => corpusTer(['a'], [[null]]), /corpusTer: Expected `referenceStreams\[\*\]\[0\]` to be at least one non-null reference/],
    ['no candidates', () => corpusTer([], [[]]), /corpusTer: Expected `candidates` to be a non-empty array of strings/],
  ])('%s', (_name, call, message) => {
    expect(call).toThrow(MetricInputError)
    expect(call).toThrow(message)
  })
})
