// The WebAssembly WordNet lookup (src/generation/wordnet-kernel.wat), which METEOR's kernel path asks for a word's
// synonym names and its form entry, against the JS lookup it stands in for (wordnet.ts visitSynonymNames with
// meteor-words.ts's name rule, and wordNetFormEntry). meteor-kernel.test.ts holds meteorScore's kernel path, which now
// goes through it, to the JS path.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { assembleKernel, kernelSource, KERNELS } from '../../../scripts/wasm-source.mjs'
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'
import { porterStepsNltkJs } from '../../../src/generation/stemmers/porter.js'
import { visitSynonymNames, wordNetFormEntry, wordNetKernel } from '../../../src/generation/wordnet.js'
import { FormIndex } from '../../../src/generation/wordnet-index.js'
import { WORDNET_KERNEL_MAX_UNITS, WordNetKernel, type KernelPosTables } from '../../../src/generation/wordnet-kernel.js'
import { Lines } from '../../../src/generation/wordnet-lines.js'

const here = new URL('../../../src/generation/', import.meta.url)

/** The JS lookup's keys for `word`: each name's form entry in visiting order, a capitalised name left out; null when a name is no form. */
function jsKeys(word: string): number[] | null {
  const keys: number[] = []
  let noForm = false
  visitSynonymNames(word, (text, start, end) => {
    if (/[A-Z]/.test(text.slice(start, end))) return
    const entry = wordNetFormEntry(text, start, end)
    if (entry < 0) noForm = true
    keys.push(entry)
  })
  return noForm ? null : keys
}

/** A kernel over small tables, POS n, v, a, r (an absent one empty). */
function kernelOver(tables: Partial<Record<'n' | 'v' | 'a' | 'r', Partial<Record<keyof KernelPosTables, string>>>>): WordNetKernel | null {
  const byPos = (['n', 'v', 'a', 'r'] as const).map((pos) => {
    const t = tables[pos] ?? {}
    return { lemmas: new Lines(t.lemmas ?? ''), lemmaSynsets: new Lines(t.lemmaSynsets ?? ''), synsets: new Lines(t.synsets ?? ''), exceptions: new Lines(t.exceptions ?? '') }
  })
  const index = new FormIndex([...byPos.map((t) => ({ lines: t.lemmas, keyEndsAtSpace: false })), ...byPos.map((t) => ({ lines: t.exceptions, keyEndsAtSpace: true }))])
  return WordNetKernel.create(byPos, index.layout())
}

describe('WordNet kernel', () => {
  it('wordnet-kernel-wasm.ts is what wordnet-kernel.wat assembles to', async () => {
    const entry = KERNELS.find((k: { wat: string }) => k.wat.endsWith('/wordnet-kernel.wat'))!
    const wat = readFileSync(new URL('wordnet-kernel.wat', here), 'utf8')
    expect(readFileSync(new URL('wordnet-kernel-wasm.ts', here), 'utf8')).toBe(kernelSource(entry, await assembleKernel(wat)))
  })

  it("gives the JS lookup's synonym keys and form entries for every lemma, its stem, every exception form and random suffixed words", () => {
    const kernel = wordNetKernel()!
    expect(kernel).not.toBeNull()
    const data = JSON.parse(gunzipSync(readFileSync(new URL('../../../data/wordnet-3.0-meteor.json.gz', import.meta.url))).toString('utf8')) as {
      lemmas: Record<string, string>
      exceptions: Record<string, string>
    }
    const words = new Set<string>()
    for (const pos of ['n', 'v', 'a', 'r']) {
      for (const word of data.lemmas[pos]!.split('\n')) {
        words.add(word)
        words.add(porterStepsNltkJs(word))
      }
      for (const line of data.exceptions[pos]!.split('\n')) for (const word of line.split(' ')) words.add(word)
    }
    const rand = random(5)
    const lemmas = [...words]
    const endings = ['s', 'ses', 'ves', 'xes', 'zes', 'ches', 'shes', 'men', 'ies', 'es', 'ed', 'ing', 'er', 'est', 'ings', 'ers']
    for (let k = 0; k < 40_000; k++) words.add(lemmas[Math.floor(rand() * lemmas.length)]! + endings[Math.floor(rand() * endings.length)]!)
    const keys: number[] = []
    let compared = 0
    let withNames = 0
    let handedBack = 0
    const differences: string[] = []
    for (const word of words) {
      if (/[A-Z]/.test(word)) continue
      const expected = jsKeys(word)
      if (!kernel.synonymKeys(word, keys)) {
        handedBack++
        continue
      }
      compared++
      if (keys.length > 0) withNames++
      if (expected === null || JSON.stringify(keys) !== JSON.stringify(expected)) differences.push(`${word}: ${JSON.stringify(keys)} (${JSON.stringify(expected)})`)
      if (kernel.formEntry(word) !== wordNetFormEntry(word)) differences.push(`${word}: form entry ${kernel.formEntry(word)} (${wordNetFormEntry(word)})`)
    }
    expect(differences.slice(0, 20)).toEqual([])
    expect(compared).toBeGreaterThan(220_000)
    expect(withNames).toBeGreaterThan(80_000)
    // it hands back only names that are no form and outputs past its room: none in WordNet 3.0
    expect(handedBack).toBe(0)
  })

  it('follows morphy on small tables: lemma, exception, the first round of rules, and hands back a second round', () => {
    const kernel = kernelOver({
      n: {
        lemmas: 'dog\ngoose\nhound\nman',
        lemmaSynsets: '0\n1\n0 2\n3',
        synsets: 'dog hound Dog\ngoose\nhound\nman',
        exceptions: 'geese goose',
      },
      v: { lemmas: 'dog', lemmaSynsets: '0', synsets: 'dog' },
    })!
    const keys: number[] = []
    const entry = (word: string) => kernel.formEntry(word)!
    // 'dog': noun synset 0 (dog, hound; Dog has a capital), verb synset 0 (dog): in NLTK's order
    expect(kernel.synonymKeys('dog', keys)).toBe(true)
    expect(keys).toEqual([entry('dog'), entry('hound'), entry('dog')])
    // 'dogs': s → '' in both parts of speech
    expect(kernel.synonymKeys('dogs', keys)).toBe(true)
    expect(keys).toEqual([entry('dog'), entry('hound'), entry('dog')])
    // 'geese' is an exception form: its bases only
    expect(kernel.synonymKeys('geese', keys)).toBe(true)
    expect(keys).toEqual([entry('goose')])
    // 'men' → 'man'; 'hound' has two synsets, the second's one name
    expect(kernel.synonymKeys('men', keys)).toBe(true)
    expect(keys).toEqual([entry('man')])
    expect(kernel.synonymKeys('hound', keys)).toBe(true)
    expect(keys).toEqual([entry('dog'), entry('hound'), entry('hound')])
    // 'dogses': the first round makes 'dogse' and 'dogs', no lemma; 'dogs' meets a rule, and the second round's 'dog'
    // is one (as a noun; as a verb the second round makes 'dog' from 'dogs' too)
    expect(kernel.synonymKeys('dogses', keys)).toBe(true)
    expect(keys).toEqual([entry('dog'), entry('hound'), entry('dog')])
    // 'catses': rounds until they make nothing, keeping no lemma
    expect(kernel.synonymKeys('catses', keys)).toBe(true)
    expect(keys).toEqual([])
    // 'cat': no entry, and 't' ends no rule
    expect(kernel.synonymKeys('cat', keys)).toBe(true)
    expect(keys).toEqual([])
    expect(entry('geese')).toBeGreaterThanOrEqual(0)
    expect(entry('cat')).toBe(-1)
  })

  it("reads a key's first line where a table has it twice (as the JS index does)", () => {
    const kernel = kernelOver({ n: { lemmas: 'dog\ndog', lemmaSynsets: '0\n1', synsets: 'dog\nhound' } })!
    const keys: number[] = []
    expect(kernel.synonymKeys('dog', keys)).toBe(true)
    expect(keys).toEqual([kernel.formEntry('dog')])
  })

  it('hands back a name that is no form, a capital, a non-ASCII or overlong word; refuses non-ASCII tables', () => {
    const kernel = kernelOver({ n: { lemmas: 'foo', lemmaSynsets: '0', synsets: 'foo bar' } })!
    const keys: number[] = []
    expect(kernel.synonymKeys('foo', keys)).toBe(false)
    expect(kernel.synonymKeys('Foo', keys)).toBe(false)
    expect(kernel.synonymKeys('fooé', keys)).toBe(false)
    expect(kernel.synonymKeys('f'.repeat(WORDNET_KERNEL_MAX_UNITS + 1), keys)).toBe(false)
    // a form entry is case-sensitive and takes capitals
    expect(kernel.formEntry('Foo')).toBe(-1)
    expect(kernel.formEntry('foo')).toBeGreaterThanOrEqual(0)
    expect(kernel.formEntry('fooé')).toBeUndefined()
    expect(kernelOver({ n: { lemmas: 'café', lemmaSynsets: '0', synsets: 'café' } })).toBeNull()
  })
})
