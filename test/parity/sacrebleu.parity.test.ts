// sacrebleu 2.6.0 parity: every golden BLEU / chrF value and tokenized string (generation.json), and
// sacrebleu's own BLEU and chrF test vectors (sacrebleu.json). Fixture provenance: fixtures/PROVENANCE.md.
import { bleuFromStats, corpusBleu, sentenceBleu, type BleuOptions, type BleuScore } from '../../src/generation/bleu.js'
import { corpusChrf, sentenceChrf, type ChrfOptions } from '../../src/generation/chrf.js'
import { getBleuTokenizer, BLEU_TOKENIZER_NAMES } from '../../src/generation/tokenizers/index.js'
import { pyRstrip } from '../../src/text/python-string.js'
import { bleuMismatches, close, golden, goldenSentenceBleu, type BleuValues } from './golden-generation.js'
import { loadFixture } from './fixtures/load.js'

const peers = loadFixture<{ cases: any[] }>('sacrebleu.json')

/** The golden variant names, as the generator's `calls` describe them, in our options. */
const BLEU_VARIANTS: Record<string, BleuOptions> = {
  tok_none: { tokenize: 'none' },
  tok_intl: { tokenize: 'intl' },
  tok_char: { tokenize: 'char' },
  lowercase: { lowercase: true },
  smooth_none: { smooth: 'none' },
  smooth_floor: { smooth: 'floor' },
  smooth_add_k: { smooth: 'add-k' },
  no_effective_order: { effectiveOrder: false },
  effective_order: { effectiveOrder: true },
}
const CHRF_VARIANTS: Record<string, ChrfOptions> = {
  chrf_eps_smoothing: { epsSmoothing: true },
  chrfpp_eps_smoothing: { wordOrder: 2, epsSmoothing: true },
  chrf_keep_whitespace: { keepWhitespace: true },
  chrf_lowercase: { lowercase: true },
}

/** One of our BLEU scores laid out like sacrebleu's values. */
function bleuValuesOf(score: BleuScore): BleuValues {
  const d = score.details
  return { score: score.value, precisions: d.precisions, bp: d.bp, sys_len: d.sysLen, ref_len: d.refLen, counts: d.counts, totals: d.totals }
}

/** Default BLEU and every golden BLEU variant of one case or corpus; `score(options)` is ours. */
function bleuVariantMismatches(
  label: string,
  score: (options?: BleuOptions) => BleuScore,
  base: BleuValues,
  variants: Record<string, BleuValues>,
  tally: { values: number; variants: number },
): string[] {
  const bad = bleuMismatches(label, bleuValuesOf(score()), base, tally)
  for (const [name, want] of Object.entries(variants)) {
    const options = BLEU_VARIANTS[name]
    if (options === undefined) {
      bad.push(`${label}: unknown variant ${name}`)
      continue
    }
    tally.variants++
    bad.push(...bleuMismatches(`${label} ${name}`, bleuValuesOf(score(options)), want, tally))
  }
  return bad
}

/** chrF, chrF++ and every golden chrF variant of one case or corpus to 1e-9; `score(options)` is ours. */
function chrfMismatches(
  label: string,
  score: (options?: ChrfOptions) => number,
  want: { chrf: number; chrfpp: number; variants: Record<string, number> },
  tally: { compared: number },
): string[] {
  const bad: string[] = []
  const checks: Array<[string, number, number]> = [
    ['chrF', score(), want.chrf],
    ['chrF++', score({ wordOrder: 2 }), want.chrfpp],
  ]
  for (const [name, value] of Object.entries(want.variants)) {
    const options = CHRF_VARIANTS[name]
    if (options === undefined) bad.push(`${label}: unknown variant ${name}`)
    else checks.push([name, score(options), value])
  }
  for (const [name, a, e] of checks) {
    tally.compared++
    if (!close(a, e)) bad.push(`${label} ${name}: ${a} vs ${e}`)
  }
  return bad
}

describe('sacrebleu 2.6.0 parity: golden generation cases', () => {
  it('has the 300 public cases and 11 corpora', () => {
    expect(golden.cases).toHaveLength(300)
    expect(golden.corpora).toHaveLength(11)
  })

  it('tokenizes every hypothesis and reference exactly like sacrebleu (13a, intl, char, none)', () => {
    const bad: string[] = []
    let compared = 0
    for (const c of golden.cases) {
      // generation.json has these four; `zh` is checked against sacrebleu_extra.json (sacrebleu-zh.parity.test.ts)
      for (const name of BLEU_TOKENIZER_NAMES.filter((n) => n !== 'zh')) {
        const tokenizer = getBleuTokenizer(name)
        const want = c.sacrebleu.tokenized[name]!
        const inputs = [c.hypothesis, ...c.references]
        const expected = [want.hyp, ...want.refs]
        expect(expected).toHaveLength(inputs.length)
        inputs.forEach((text, i) => {
          compared++
          // the golden strings are `tokenizer(s.rstrip())`
          const got = tokenizer.tokenize(pyRstrip(text))
          if (got !== expected[i]) bad.push(`${c.id} ${name} #${i}: ${JSON.stringify(got)} vs ${JSON.stringify(expected[i])}`)
          // the fast token path BLEU uses gives the same tokens as splitting that string
          const tokens = tokenizer.tokens(pyRstrip(text))
          const fromString = getBleuTokenizer('none').tokens(expected[i]!)
          if (tokens.join('\u0001') !== fromString.join('\u0001')) bad.push(`${c.id} ${name} #${i}: tokens differ`)
        })
      }
    }
    expect(bad).toEqual([])
    expect(compared).toBeGreaterThan(4 * 300)
  })

  it('matches sentence BLEU (defaults) and every BLEU variant: score, precisions, bp, lengths, counts, totals', () => {
    const bad: string[] = []
    const tally = { values: 0, variants: 0 }
    for (const c of golden.cases) {
      const score = (options?: BleuOptions) => sentenceBleu(c.hypothesis, c.references, options)
      bad.push(...bleuVariantMismatches(c.id, score, goldenSentenceBleu(c), c.sacrebleu.bleu_variants, tally))
    }
    expect(bad).toEqual([])
    expect(tally.variants).toBe(300 * 8)
    expect(tally.values).toBe(300 * 9 * 16)
  })

  it('matches sentence chrF, chrF++ and every chrF variant', () => {
    const bad: string[] = []
    const tally = { compared: 0 }
    for (const c of golden.cases) {
      const s = c.sacrebleu
      const score = (options?: ChrfOptions) => sentenceChrf(c.hypothesis, c.references, options).value
      bad.push(...chrfMismatches(c.id, score, { chrf: s.chrf, chrfpp: s.chrfpp, variants: s.chrf_variants }, tally))
    }
    expect(bad).toEqual([])
    expect(tally.compared).toBe(300 * 6)
  })

  it('matches corpus BLEU and its variants on all 11 corpora', () => {
    const bad: string[] = []
    const tally = { values: 0, variants: 0 }
    for (const corpus of golden.corpora) {
      const score = (options?: BleuOptions) => corpusBleu(corpus.hypotheses, corpus.references, options)
      bad.push(...bleuVariantMismatches(corpus.id, score, corpus.corpus_bleu, corpus.corpus_bleu_variants, tally))
    }
    expect(bad).toEqual([])
    expect(tally.values).toBe(11 * 9 * 16)
  })

  it('matches corpus chrF, chrF++ and their variants on all 11 corpora', () => {
    const bad: string[] = []
    const tally = { compared: 0 }
    for (const corpus of golden.corpora) {
      const score = (options?: ChrfOptions) => corpusChrf(corpus.hypotheses, corpus.references, options).value
      const want = { chrf: corpus.corpus_chrf, chrfpp: corpus.corpus_chrfpp, variants: corpus.corpus_chrf_variants }
      bad.push(...chrfMismatches(corpus.id, score, want, tally))
    }
    expect(bad).toEqual([])
    expect(tally.compared).toBe(11 * 4)
  })

  it('reproduces the documented corner: corpus "short" has no 4-gram (0 without effective order)', () => {
    const short = golden.corpora.find((c) => c.id === 'short')!
    expect(corpusBleu(short.hypotheses, short.references).value).toBe(0)
    expect(corpusBleu(short.hypotheses, short.references).details.precisions).toEqual(short.corpus_bleu.precisions)
    expect(close(corpusBleu(short.hypotheses, short.references, { effectiveOrder: true }).value, 0.1503439192977573)).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------
// sacrebleu's own tests (test_bleu.py, test_sentence_bleu.py, test_chrf.py) as data

/** The peer's settings, in our options. `force` only silences a warning in sacrebleu. */
function bleuOptionsOf(settings: any): BleuOptions {
  return {
    ...(settings.tokenize !== undefined ? { tokenize: settings.tokenize } : {}),
    smooth: settings.smooth_method,
    ...(settings.smooth_value !== null && settings.smooth_value !== undefined ? { smoothValue: settings.smooth_value } : {}),
    ...(settings.lowercase !== undefined ? { lowercase: settings.lowercase } : {}),
    effectiveOrder: settings.effective_order,
    ...(settings.max_ngram_order !== undefined ? { maxNgramOrder: settings.max_ngram_order } : {}),
  }
}

function chrfOptionsOf(settings: any): ChrfOptions {
  return {
    charOrder: settings.char_order,
    wordOrder: settings.word_order,
    beta: settings.beta,
    keepWhitespace: !settings.remove_whitespace,
    epsSmoothing: settings.eps_smoothing,
    lowercase: settings.lowercase,
  }
}

/** Our BLEU (0–100) for one peer case. */
function peerBleu(c: any): BleuScore {
  const options = bleuOptionsOf(c.settings)
  if (c.level === 'statistics') {
    const { correct, total, sys_len: sysLen, ref_len: refLen } = c.statistics
    return bleuFromStats([sysLen, refLen, ...correct, ...total], options)
  }
  if (c.level === 'corpus') return corpusBleu(c.hypotheses, c.references, options)
  return sentenceBleu(c.hypothesis, c.references, options)
}

/** The number the peer's assertion looks at: some tests compare `score / 100`. */
function onPeerScale(c: any, score: number): number {
  return /\.score \/ 100$/.test(c.call) ? score / 100 : score
}

function peerAssertionHolds(c: any, actual: unknown): boolean {
  switch (c.assertion) {
    case 'abs(actual - expected) < epsilon':
      return Math.abs((actual as number) - c.expected) < c.epsilon
    case 'actual == expected (exact)':
      return actual === c.expected
    case "f'{actual:.2f}' == expected (expected is a string)":
      return (actual as number).toFixed(2) === c.expected
    case 'actual == expected (lists of ints)':
      return JSON.stringify(actual) === JSON.stringify(c.expected)
    default:
      throw new Error(`unknown assertion ${c.assertion}`)
  }
}

describe("sacrebleu's own BLEU and chrF tests (peers/sacrebleu.json)", () => {
  const bleuCases = peers.cases.filter((c) => c.metric === 'bleu')
  const chrfCases = peers.cases.filter((c) => c.metric === 'chrf')

  it('has the BLEU and chrF cases (TER is out of scope)', () => {
    expect(bleuCases).toHaveLength(59)
    expect(chrfCases).toHaveLength(25)
  })

  it.each(bleuCases.map((c) => [c.id, c]))('BLEU %s', (_id, c) => {
    const ours = peerBleu(c)
    const actual = c.assertion === 'actual == expected (lists of ints)' ? { counts: ours.details.counts, totals: ours.details.totals } : onPeerScale(c, ours.value)
    // the peer's own assertion, on its own scale and tolerance
    expect(peerAssertionHolds(c, actual)).toBe(true)
    // and bit-for-bit (to 1e-9) what sacrebleu itself returns, with its whole breakdown
    expect(bleuMismatches(c.id, bleuValuesOf(ours), c.actual_detail, { values: 0 })).toEqual([])
  })

  it.each(chrfCases.map((c) => [c.id, c]))('chrF %s', (_id, c) => {
    const options = chrfOptionsOf(c.settings)
    const ours = c.level === 'corpus' ? corpusChrf(c.hypotheses, c.references, options) : sentenceChrf(c.hypothesis, c.references, options)
    expect(peerAssertionHolds(c, ours.value)).toBe(true)
    expect(close(ours.value, c.actual)).toBe(true)
    expect(ours.details.stats).toEqual(c.actual_statistics)
  })
})
