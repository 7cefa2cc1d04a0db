import { loadWordNet, morphy, setWordNetDataPath, synonyms, synsets, wordNetGeneration } from '../../../src/generation/wordnet.js'
import { porterStem } from '../../../src/generation/stemmers/porter.js'
import { MetricInputError } from '../../../src/errors.js'
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { loadFixture } from '../../parity/fixtures/load.js'

describe('WordNet 3.0 data', () => {
  it('was built from the WordNet files the golden METEOR values were computed with', () => {
    const payload = JSON.parse(gunzipSync(readFileSync(loadWordNet().path)).toString('utf8')) as { sha256: unknown; wordnet: unknown }
    const golden = loadFixture<{ meta: { provenance: { wordnet: { data_sha256: unknown } } } }>('generation.json')
    expect(payload.wordnet).toBe('3.0')
    expect(payload.sha256).toEqual(golden.meta.provenance.wordnet.data_sha256)
  })

  it('has WordNet 3.0 sizes (index lemmas and synsets per POS, as published for 3.0)', () => {
    const info = loadWordNet()
    expect(info.path).toMatch(/data[\\/]wordnet-3\.0-meteor\.json\.gz$/)
    expect(info.counts.n).toMatchObject({ lemmas: 117798, synsets: 82115 })
    expect(info.counts.v).toMatchObject({ lemmas: 11529, synsets: 13767 })
    expect(info.counts.a).toMatchObject({ lemmas: 21479, synsets: 18156 })
    expect(info.counts.r).toMatchObject({ lemmas: 4481, synsets: 3621 })
    // distinct inflected forms of noun/verb/adj/adv.exc (duplicated forms counted once)
    expect([info.counts.n.exceptions, info.counts.v.exceptions, info.counts.a.exceptions, info.counts.r.exceptions]).toEqual([2050, 2401, 1489, 7])
  })
})

describe('morphy (NLTK 3.8 _morphy)', () => {
  it('uses the exception list and then applies no rule', () => {
    expect(morphy('geese', 'n')).toEqual(['goose'])
    expect(morphy('ran', 'v')).toEqual(['run'])
    // [form] + exceptions, filtered on index lemmas, in order
    expect(morphy('better', 'a')).toEqual(['better', 'good', 'well'])
    expect(morphy('bigger', 'a')).toEqual(['bigger', 'big'])
    expect(morphy('men', 'n')).toEqual(['men', 'man'])
  })

  it('keeps the LAST line of a form listed twice in an .exc file (Python dict assignment)', () => {
    // noun.exc: "involucra involucre" then "involucra involucrum"; only involucre is a noun lemma
    expect(morphy('involucra', 'n')).toEqual([])
    // noun.exc: "aurar eyir" then "aurar eyrir"
    expect(morphy('aurar', 'n')).toEqual(['eyrir'])
    // adj.exc: "offer off" then "offer offer"; off is an adjective, offer is not
    expect(morphy('offer', 'a')).toEqual([])
  })

  it('applies every matching detachment rule once and keeps the index lemmas, the form itself first', () => {
    expect(morphy('dogs', 'n')).toEqual(['dog'])
    expect(morphy('churches', 'n')).toEqual(['church'])
    expect(morphy('boxes', 'n')).toEqual(['box'])
    expect(morphy('axes', 'n')).toEqual(['ax', 'axis'])
    expect(morphy('hoped', 'v')).toEqual(['hope', 'hop'])
    expect(morphy('fastest', 'a')).toEqual(['fast'])
    expect(morphy('glass', 'n')).toEqual(['glass'])
    expect(morphy('painting', 'n')).toEqual(['painting'])
  })

  it('loops over the rules while nothing is found', () => {
    // round 1: paintings → painting (not a verb); round 2: painting → painte, paint
    expect(morphy('paintings', 'v')).toEqual(['paint'])
  })

  it('has no adverb rules and does not lower-case', () => {
    expect(morphy('quickly', 'r')).toEqual(['quickly'])
    expect(morphy('quicklies', 'r')).toEqual([])
    expect(morphy('Dogs', 'n')).toEqual([])
    expect(morphy('', 'n')).toEqual([])
  })

  it('stays fast on forms whose rule output multiplies every round', () => {
    const started = performance.now()
    expect(morphy('es'.repeat(40) + 'ed', 'v')).toEqual([])
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('rejects bad arguments', () => {
    expect(() => morphy('dogs', 'x' as never)).toThrow(MetricInputError)
    expect(() => morphy('dogs', 'x' as never)).toThrow("morphy: Expected `pos` to be one of 'n', 'v', 'a', 'r', got `\"x\"` (string)")
    expect(() => morphy(3 as never, 'n')).toThrow('morphy: Expected `form` to be a string')
  })
})

describe('synsets / synonyms', () => {
  it('lower-cases the word and keeps lemma-name case and NLTK synset order', () => {
    const party = synsets('Party')
    expect(party).toEqual(synsets('party'))
    expect(party).toHaveLength(6) // 5 noun synsets + 1 verb synset in WordNet 3.0
    expect(party[2]).toEqual(['party', 'company'])
    // case is kept in lemma names: 'Tegucigalpa' comes back capitalised, so a lower-cased word never equals it
    expect(synonyms('tegucigalpa').has('Tegucigalpa')).toBe(true)
    expect(synonyms('tegucigalpa').has('tegucigalpa')).toBe(false)
  })

  it('drops multi-word lemma names and adjective markers', () => {
    const big = synonyms('big')
    expect(big.has('large')).toBe(true)
    for (const name of big) expect(name).not.toMatch(/[_(]/)
    // "galore(ip)" in data.adj
    expect(synonyms('galore').has('galore')).toBe(true)
  })

  it('matches the README examples on Porter stems: fast/quick … but not large/big', () => {
    const pairs: Array<[string, string, boolean]> = [
      ['fast', 'quick', true],
      ['quick', 'fast', true],
      ['start', 'begin', true],
      ['assist', 'help', true],
      ['kid', 'child', true],
      ['ill', 'sick', true],
      ['close', 'shut', true],
      ['difficult', 'hard', true],
      ['large', 'big', false], // larg
      ['automobile', 'car', false], // automobil
      ['purchase', 'buy', false], // purchas
      ['wealthy', 'rich', false], // wealthi
      ['mistakes', 'errors', false], // mistak / error
    ]
    for (const [a, b, expected] of pairs) {
      expect(synonyms(porterStem(a)).has(porterStem(b)), `${a}/${b}`).toBe(expected)
    }
    expect(synonyms('larg').size).toBe(0)
  })

  it('synonyms(word) is the union of synsets(word), also for the words morphy finds nothing for', () => {
    // synonyms skips morphy for a form with no exception, no lemma and no applicable rule; synsets does not
    const words = ['larg', 'quick', 'fast', 'geese', 'dogs', 'better', 'running', 'happi', 'xyzzy', 'abbrevi', 'glasses', 'was', 'offer', 'aurar', 'men', 'ies', 's', '']
    for (const word of [...words, ...words.map((w) => `${w}s`), ...words.map((w) => `${w}ed`)]) {
      expect([...synonyms(word)].sort()).toEqual([...new Set(synsets(word).flat())].sort())
    }
  })

  it('returns the cached set on repeated calls', () => {
    expect(synonyms('quick')).toBe(synonyms('quick'))
  })

  it('fails clearly when the data file is missing, and recovers', () => {
    const before = wordNetGeneration()
    setWordNetDataPath('/nonexistent/wordnet.json.gz')
    try {
      expect(wordNetGeneration()).toBe(before + 1)
      expect(() => synonyms('fast')).toThrow(/nonexistent/)
    } finally {
      setWordNetDataPath(undefined)
    }
    expect(synonyms('fast').has('quick')).toBe(true)
    expect(() => setWordNetDataPath('' as string)).toThrow(MetricInputError)
  })
})
