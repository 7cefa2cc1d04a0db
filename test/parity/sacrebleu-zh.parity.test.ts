// sacrebleu 2.6.0 parity for the `zh` tokenizer and BLEU with `tokenize: 'zh'`: every golden
// tokenization, every sentence BLEU field, the corpus BLEU and its signature. Fixture:
// fixtures/sacrebleu-extra/tokenize_zh.json (the `tokenize_zh` section of shared/golden/public/sacrebleu_extra.json).
import { corpusBleu, sentenceBleu, type BleuScore } from '../../src/generation/bleu.js'
import { getBleuTokenizer } from '../../src/generation/tokenizers/index.js'
import { isZhSplitCodePoint, tokenizeZh } from '../../src/generation/tokenizers/tokenizer-zh.js'
import { pyRstrip } from '../../src/text/python-string.js'
import { VERSION } from '../../src/version.js'
import { bleuMismatches, type BleuValues } from './golden-generation.js'
import { loadFixture } from './fixtures/load.js'

interface ZhGolden {
  meta: { provenance: { sacrebleu_version: string } }
  tokenize_zh: {
    strings: Array<{ id: string; text: string; tokenized: string }>
    sentence_bleu: Array<{ id: string; hypothesis: string; references: string[]; tokenized: { hyp: string; refs: string[] }; sentence_bleu_zh: BleuValues }>
    corpus: { id: string; note: string; corpus_bleu_zh: BleuValues; signature: string }
  }
}

const golden = loadFixture<ZhGolden>('sacrebleu-extra/tokenize_zh.json')
const { strings, sentence_bleu: pairs, corpus } = golden.tokenize_zh

function valuesOf(score: BleuScore): BleuValues {
  const d = score.details
  return { score: score.value, precisions: d.precisions, bp: d.bp, sys_len: d.sysLen, ref_len: d.refLen, counts: d.counts, totals: d.totals }
}

describe('sacrebleu 2.6.0 parity: the zh tokenizer', () => {
  it('has the 60 strings, 40 sentence pairs and the corpus', () => {
    expect(strings).toHaveLength(60)
    expect(pairs).toHaveLength(40)
    expect(corpus.note).toMatch(/first reference/)
  })

  it('tokenizes every golden string exactly like TokenizerZh', () => {
    const bad = strings.filter((s) => tokenizeZh(s.text) !== s.tokenized).map((s) => `${s.id}: ${JSON.stringify(tokenizeZh(s.text))} vs ${JSON.stringify(s.tokenized)}`)
    expect(bad).toEqual([])
  })

  it('tokenizes every sentence-BLEU hypothesis and reference as sacrebleu did, through the BLEU registry too', () => {
    const zh = getBleuTokenizer('zh')
    const bad: string[] = []
    let compared = 0
    for (const p of pairs) {
      const inputs: Array<[string, string]> = [[p.hypothesis, p.tokenized.hyp], ...p.references.map((r, i): [string, string] => [r, p.tokenized.refs[i]!])]
      for (const [text, want] of inputs) {
        compared++
        const got = zh.tokenize(pyRstrip(text))
        if (got !== want) bad.push(`${p.id}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`)
        // the token path BLEU counts with gives the same tokens
        if (zh.tokens(pyRstrip(text)).join('\u0001') !== want.split(' ').filter(Boolean).join('\u0001')) bad.push(`${p.id}: tokens differ`)
      }
    }
    expect(bad).toEqual([])
    expect(compared).toBe(pairs.reduce((n, p) => n + 1 + p.references.length, 0))
  })

  it('splits U+2001–2A6D (the range quirk) and full-width forms, and not Ext-B, emoji, kana or hangul', () => {
    expect([0x2000, 0x2001, 0x2014, 0x2a6d, 0x2a6e].map(isZhSplitCodePoint)).toEqual([false, true, true, true, false])
    // the second quirk range lies inside the Kangxi radicals entry (2F00–2FDF), so it changes nothing visible
    expect([0x2eff, 0x2f00, 0x2f81, 0x2fa1, 0x2fdf, 0x2fe0].map(isZhSplitCodePoint)).toEqual([true, true, true, true, true, false])
    expect([0x20000, 0x2a6d6, 0x1f600, 0x3042, 0x30a2, 0xac00].map(isZhSplitCodePoint)).toEqual([false, false, false, false, false, false])
    expect([0xff01, 0xffef, 0x3000, 0x303f].map(isZhSplitCodePoint)).toEqual([true, true, true, true])
  })

  it('matches sentence BLEU with tokenize zh on all 40 pairs: score, precisions, bp, lengths, counts, totals', () => {
    const bad: string[] = []
    const tally = { values: 0 }
    for (const p of pairs) bad.push(...bleuMismatches(p.id, valuesOf(sentenceBleu(p.hypothesis, p.references, { tokenize: 'zh' })), p.sentence_bleu_zh, tally))
    expect(bad).toEqual([])
    expect(tally.values).toBe(40 * 16)
  })

  it('matches corpus BLEU with tokenize zh and its signature (tok:zh)', () => {
    const score = corpusBleu(
      pairs.map((p) => p.hypothesis),
      [pairs.map((p) => p.references[0]!)],
      { tokenize: 'zh' },
    )
    expect(bleuMismatches(corpus.id, valuesOf(score), corpus.corpus_bleu_zh, { values: 0 })).toEqual([])
    // ours starts with the metric name and ends with this library's version (as every BLEU signature)
    expect(score.signature).toBe(`BLEU|${corpus.signature.replace(/\|version:.*$/, '')}|version:${VERSION}`)
    expect(corpus.signature).toMatch(new RegExp(`\\|tok:zh\\|.*version:${golden.meta.provenance.sacrebleu_version.replace(/\./g, '\\.')}$`))
  })
})
