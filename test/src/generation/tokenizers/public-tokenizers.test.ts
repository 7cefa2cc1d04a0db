// sacrebleu's tokenizers and NLTK's porterStem as `rag-matchers/generation` exports them (issue #25):
// sacrebleu 2.6.0's / NLTK 3.8's outputs on the golden strings of test/parity/fixtures, the examples of
// their doc comments, and a MetricInputError naming the argument for bad input.
import * as generation from '../../../../src/generation/public.js'
import {
  MetricInputError,
  porterStem,
  tokenize13a,
  tokenizeChar,
  tokenizeIntl,
  tokenizeNone,
  tokenizeTercom,
  tokenizeZh,
  type TerOptions,
} from '../../../../src/generation/public.js'
import { pyRstrip } from '../../../../src/text/python-string.js'
import { loadFixture } from '../../../parity/fixtures/load.js'

interface Tokenized {
  hyp: string
  refs: string[]
}
const generationGolden = loadFixture<{ cases: Array<{ id: string; hypothesis: string; references: string[]; sacrebleu: { tokenized: Record<string, Tokenized> } }> }>(
  'generation.json',
)
const zhGolden = loadFixture<{ tokenize_zh: { strings: Array<{ id: string; text: string; tokenized: string }> } }>('sacrebleu-extra/tokenize_zh.json')
const terGolden = loadFixture<{
  ter: {
    combos: Record<string, { kwargs: { normalized?: boolean; no_punct?: boolean; asian_support?: boolean; case_sensitive?: boolean } }>
    cases: Array<{ id: string; hypothesis: string; references: string[]; tokenized: Record<string, Tokenized> }>
  }
}>('sacrebleu-extra/ter.json')
const nltkGolden = loadFixture<{ porter: Array<{ id: string; mode: string; word: string; to_lowercase?: boolean; actual: string }> }>('nltk.json')

const BLEU_TOKENIZERS = { '13a': tokenize13a, intl: tokenizeIntl, char: tokenizeChar, none: tokenizeNone } as const

/** Each input string with its golden tokenization. */
function pairsOf(c: { hypothesis: string; references: string[] }, want: Tokenized): Array<[string, string]> {
  expect(want.refs).toHaveLength(c.references.length)
  return [[c.hypothesis, want.hyp], ...c.references.map((r, i): [string, string] => [r, want.refs[i]!])]
}

function thrown(fn: () => unknown): MetricInputError {
  try {
    fn()
  } catch (error) {
    if (error instanceof MetricInputError) return error
    throw error
  }
  throw new Error('did not throw')
}

describe('rag-matchers/generation tokenizers', () => {
  it('are exported as functions', () => {
    for (const name of ['tokenize13a', 'tokenizeIntl', 'tokenizeChar', 'tokenizeZh', 'tokenizeNone', 'tokenizeTercom', 'porterStem'] as const) {
      expect(typeof generation[name]).toBe('function')
    }
  })

  it.each(Object.keys(BLEU_TOKENIZERS) as Array<keyof typeof BLEU_TOKENIZERS>)('%s gives sacrebleu 2.6.0 tokenized strings on the golden cases', (name) => {
    const tokenize = BLEU_TOKENIZERS[name]
    const bad: string[] = []
    let compared = 0
    for (const c of generationGolden.cases) {
      for (const [text, expected] of pairsOf(c, c.sacrebleu.tokenized[name]!)) {
        compared++
        // the golden strings are `tokenizer(s.rstrip())`
        const got = tokenize(pyRstrip(text))
        if (got !== expected) bad.push(`${c.id}: ${JSON.stringify(got)} vs ${JSON.stringify(expected)}`)
      }
    }
    expect(bad).toEqual([])
    expect(compared).toBeGreaterThanOrEqual(600)
  })

  it('zh gives sacrebleu 2.6.0 TokenizerZh strings on the golden strings', () => {
    const { strings } = zhGolden.tokenize_zh
    expect(strings.length).toBeGreaterThan(0)
    const bad = strings.filter((s) => tokenizeZh(s.text) !== s.tokenized).map((s) => `${s.id}: ${JSON.stringify(tokenizeZh(s.text))} vs ${JSON.stringify(s.tokenized)}`)
    expect(bad).toEqual([])
  })

  it('tercom gives sacrebleu 2.6.0 TercomTokenizer strings under every option combination', () => {
    const { combos, cases } = terGolden.ter
    const bad: string[] = []
    let compared = 0
    for (const [comboName, { kwargs }] of Object.entries(combos)) {
      const options: TerOptions = { normalized: kwargs.normalized, noPunct: kwargs.no_punct, asianSupport: kwargs.asian_support, caseSensitive: kwargs.case_sensitive }
      for (const c of cases) {
        for (const [text, expected] of pairsOf(c, c.tokenized[comboName]!)) {
          compared++
          const got = tokenizeTercom(pyRstrip(text), options)
          if (got !== expected) bad.push(`${c.id} ${comboName}: ${JSON.stringify(got)} vs ${JSON.stringify(expected)}`)
        }
      }
    }
    expect(bad).toEqual([])
    expect(compared).toBeGreaterThan(9 * 100)
  })

  it('tercom defaults to TER defaults (lower-cased, nothing else)', () => {
    const combo = Object.entries(terGolden.ter.combos).find(([, { kwargs }]) => Object.values(kwargs).every((v) => v !== true))
    expect(combo).toBeDefined()
    for (const c of terGolden.ter.cases.slice(0, 20)) expect(tokenizeTercom(pyRstrip(c.hypothesis))).toBe(c.tokenized[combo![0]]!.hyp)
  })

  it('do what their doc examples say', () => {
    expect(tokenize13a("It was 28.4 BLEU (p<0.05), the U.S. model's best.")).toBe("It was 28.4 BLEU ( p < 0.05 ) , the U . S . model's best .")
    expect(tokenizeIntl('it’s 3:45 &amp; 92%')).toBe('it ’ s 3:45 & amp ; 92%')
    expect(tokenizeChar('ab c')).toBe('a b   c')
    expect(tokenizeZh('这是一个测试，包含ASCII words和数字123。')).toBe('这 是 一 个 测 试 ， 包 含 ASCII words 和 数 字 123 。')
    expect(tokenizeNone('Hello, world.')).toBe('Hello, world.')
    expect(tokenizeTercom("The dog's bone, 3.5 kg.")).toBe("the dog's bone, 3.5 kg.")
    expect(tokenizeTercom("The dog's bone, 3.5 kg.", { normalized: true })).toBe("the dog 's bone , 3.5 kg .")
  })

  it('throw MetricInputError naming the argument for bad input', () => {
    for (const [name, fn] of [...Object.entries(BLEU_TOKENIZERS), ['zh', tokenizeZh], ['tercom', tokenizeTercom]] as Array<[string, (text: string) => string]>) {
      for (const bad of [undefined, null, 42, ['a b'], { text: 'a' }]) {
        const error = thrown(() => fn(bad as never))
        expect({ name, argument: error.argument }).toEqual({ name, argument: 'text' })
        expect(error.message).toMatch(/^tokenize\w+: Expected `text` to be a string, got /)
      }
    }
    expect(thrown(() => tokenizeTercom('a', { normalised: true } as never)).argument).toBe('options.normalised')
    expect(thrown(() => tokenizeTercom('a', { noPunct: 'yes' } as never)).argument).toBe('options.noPunct')
    expect(thrown(() => tokenizeTercom('a', 'normalized' as never)).argument).toBe('options')
  })
})

describe('rag-matchers/generation porterStem', () => {
  it('gives NLTK 3.8 PorterStemmer stems on its doctest vectors', () => {
    const MODE: Record<string, 'nltk' | 'original' | 'martin'> = { NLTK_EXTENSIONS: 'nltk', ORIGINAL_ALGORITHM: 'original', MARTIN_EXTENSIONS: 'martin' }
    expect(nltkGolden.porter.length).toBeGreaterThan(0)
    for (const p of nltkGolden.porter) {
      const mode = MODE[p.mode]!
      const got = p.to_lowercase === undefined ? porterStem(p.word, mode) : porterStem(p.word, mode, { lowercase: p.to_lowercase })
      expect({ id: p.id, got }).toEqual({ id: p.id, got: p.actual })
    }
  })

  it('throws MetricInputError naming the argument for bad input', () => {
    expect(thrown(() => porterStem(42 as never)).argument).toBe('word')
    expect(thrown(() => porterStem('running', 'snowball' as never)).argument).toBe('mode')
  })
})
