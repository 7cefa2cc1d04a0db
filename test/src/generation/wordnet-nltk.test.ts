import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { loadWordNet, morphy, synonyms, synsets, WORDNET_POS, type WordNetPos } from '../../../src/generation/wordnet.js'
import { porterStem } from '../../../src/generation/stemmers/porter.js'
import { pyLower } from '../../../src/text/python-lower.js'

// NLTK 3.8's WordNetCorpusReader._morphy and synsets() written out as in Python, over the data file
// split into plain Sets and Maps: wordnet.ts (one hash index, forms looked up in place, rule forms
// made only after the first round) must give the same lists, in the same order, for every word.

interface Reference {
  lemmas: Record<WordNetPos, Set<string>>
  synsetIds: Record<WordNetPos, Map<string, number[]>>
  synsetNames: Record<WordNetPos, string[]>
  exceptions: Record<WordNetPos, Map<string, string[]>>
}

// NLTK's MORPHOLOGICAL_SUBSTITUTIONS, restated from NLTK rather than imported from wordnet.ts, so that the oracle
// shares nothing with the code it checks
const SUBSTITUTIONS: Record<WordNetPos, Array<[string, string]>> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['ves', 'f'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
}

function loadReference(): Reference {
  const payload = JSON.parse(gunzipSync(readFileSync(loadWordNet().path)).toString('utf8')) as Record<
    'lemmas' | 'lemmaSynsets' | 'synsets' | 'exceptions',
    Record<WordNetPos, string>
  >
  const split = (text: string): string[] => (text.length === 0 ? [] : text.split('\n'))
  const ref = { lemmas: {}, synsetIds: {}, synsetNames: {}, exceptions: {} } as Reference
  for (const pos of WORDNET_POS) {
    const lemmas = split(payload.lemmas[pos])
    const ids = split(payload.lemmaSynsets[pos])
    ref.lemmas[pos] = new Set(lemmas)
    ref.synsetIds[pos] = new Map(
      lemmas.map((lemma, k) => [
        lemma,
        ids[k]!.split(' ')
          .filter((id) => id !== '')
          .map((id) => parseInt(id, 36)),
      ]),
    )
    ref.synsetNames[pos] = split(payload.synsets[pos])
    ref.exceptions[pos] = new Map(split(payload.exceptions[pos]).map((line) => [line.split(' ')[0]!, line.split(' ').slice(1)]))
  }
  return ref
}

/** NLTK 3.8 `_morphy(form, pos)`, line by line (no deduplication of rule output). */
function nltkMorphy(ref: Reference, form: string, pos: WordNetPos): string[] {
  const exceptions = ref.exceptions[pos]
  const substitutions = SUBSTITUTIONS[pos]
  const applyRules = (forms: string[]): string[] =>
    forms.flatMap((f) => substitutions.filter(([old]) => f.endsWith(old)).map(([old, replacement]) => f.slice(0, f.length - old.length) + replacement))
  const filterForms = (forms: string[]): string[] => {
    const result: string[] = []
    for (const f of forms) if (ref.lemmas[pos].has(f) && !result.includes(f)) result.push(f)
    return result
  }
  const bases = exceptions.get(form)
  if (bases !== undefined) return filterForms([form, ...bases])
  let forms = applyRules([form])
  let results = filterForms([form, ...forms])
  if (results.length > 0) return results
  while (forms.length > 0) {
    forms = applyRules(forms)
    results = filterForms(forms)
    if (results.length > 0) return results
  }
  return []
}

/** NLTK 3.8 `synsets(word)`: for each POS, each morphy form of `word.lower()`, each synset of the form. */
function nltkSynsets(ref: Reference, word: string): string[][] {
  const lemma = pyLower(word)
  return WORDNET_POS.flatMap((pos) =>
    nltkMorphy(ref, lemma, pos).flatMap((form) =>
      (ref.synsetIds[pos].get(form) ?? []).map((id) => {
        const names = ref.synsetNames[pos][id] ?? ''
        return names === '' ? [] : names.split(' ')
      }),
    ),
  )
}

/** Words of every kind morphy distinguishes: exception forms and their bases, lemmas, inflected lemmas, their Porter stems, rule suffixes alone. */
function wordsToCheck(ref: Reference): string[] {
  const words = new Set<string>([
    '',
    's',
    'ss',
    'es',
    'ies',
    'ing',
    'ed',
    'er',
    'est',
    'men',
    'ses',
    'eses',
    'sses',
    'Dogs',
    'GEESE',
    'İs',
    'naïve',
    'ab_initio',
    'a_cappellas',
  ])
  for (const pos of WORDNET_POS) {
    for (const [form, bases] of ref.exceptions[pos]) {
      words.add(form)
      for (const base of bases) words.add(base)
    }
    let k = 0
    for (const lemma of ref.lemmas[pos]) {
      if (k++ % 37 !== 0) continue
      words.add(lemma)
      words.add(porterStem(lemma))
      for (const suffix of ['s', 'es', 'ies', 'ed', 'ing', 'er', 'est', 'men', 'ses', 'ves', 'ches']) words.add(lemma + suffix)
      if (lemma.endsWith('y')) words.add(`${lemma.slice(0, -1)}ies`)
      if (lemma.endsWith('e')) words.add(`${lemma}d`)
    }
  }
  return [...words]
}

describe('morphy / synsets / synonyms against NLTK 3.8 written out', () => {
  const ref = loadReference()
  const words = wordsToCheck(ref)

  it('checks enough words of each kind', () => {
    expect(words.length).toBeGreaterThan(30_000)
  })

  it('morphy(form, pos) is NLTK _morphy for every word and part of speech', () => {
    const mismatches: string[] = []
    for (const word of words) {
      for (const pos of WORDNET_POS) {
        const ours = morphy(word, pos)
        const theirs = nltkMorphy(ref, word, pos)
        if (JSON.stringify(ours) !== JSON.stringify(theirs)) mismatches.push(`${word}/${pos}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`)
      }
    }
    expect(mismatches.slice(0, 10)).toEqual([])
  })

  it('synsets(word) is NLTK synsets() (names per synset, in order), and synonyms(word) their union', () => {
    const mismatches: string[] = []
    for (const word of words) {
      const theirs = nltkSynsets(ref, word)
      if (JSON.stringify(synsets(word)) !== JSON.stringify(theirs)) mismatches.push(`synsets ${word}`)
      const union = [...new Set(theirs.flat())].sort()
      if (JSON.stringify([...synonyms(word)].sort()) !== JSON.stringify(union)) mismatches.push(`synonyms ${word}`)
    }
    expect(mismatches.slice(0, 10)).toEqual([])
  })
})
