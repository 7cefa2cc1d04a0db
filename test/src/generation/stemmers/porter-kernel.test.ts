// The WebAssembly Porter steps (src/generation/stemmers/porter-kernel.wat), which porterStem, ROUGE and METEOR use for
// lower-case ASCII words in NLTK mode, against the JS rules (porterStepsNltkJs). NLTK's own outputs for these words are
// held by test/parity/porter.parity.test.ts, which now runs through the kernel.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { assembleKernel, kernelSource, KERNELS } from '../../../../scripts/wasm-source.mjs'
import { mulberry32 as random } from '../../../../src/eval-set/statistics.js'
import { porterStem, porterStemNltkUncached, porterStepsNltkJs } from '../../../../src/generation/stemmers/porter.js'
import { PORTER_KERNEL_MAX_UNITS, PorterKernel } from '../../../../src/generation/stemmers/porter-kernel.js'
import { isLowerAscii } from '../../../../src/text/python-lower.js'
import { fixturePath } from '../../../parity/fixtures/load.js'

const here = new URL('../../../../src/generation/stemmers/', import.meta.url)

/** What the kernel takes: lower-case ASCII (no A–Z) of three letters or more. */
const takes = (word: string) => word.length >= 3 && isLowerAscii(word)

/** Every word whose kernel stem differs from the JS rules', as "word → kernel (js)". */
function differences(kernel: PorterKernel, words: Iterable<string>): string[] {
  const out: string[] = []
  for (const word of words) {
    const viaKernel = kernel.stem(word)
    const viaJs = porterStepsNltkJs(word)
    if (viaKernel !== viaJs) out.push(`${JSON.stringify(word)} → ${JSON.stringify(viaKernel)} (${JSON.stringify(viaJs)})`)
  }
  return out
}

// every suffix a rule or a step tests, so that random words reach each rule and its neighbours
const SUFFIXES = (
  'ational tional enci anci izer bli alli entli eli ousli ization ation ator alism iveness fulness ousness aliti iviti ' +
  'biliti fulli logi icate ative alize iciti ical ful ness al ance ence er ic able ible ant ement ment ent ion sion tion ' +
  'ou ism ate iti ous ive ize sses ies ss s ied eed ed ing at bl iz *d y e ll yy ying ys'
).split(' ')

describe('Porter kernel (NLTK mode)', () => {
  const kernel = PorterKernel.create()!

  it('porter-kernel-wasm.ts is what porter-kernel.wat assembles to', async () => {
    const entry = KERNELS.find((k: { wat: string }) => k.wat.endsWith('/porter-kernel.wat'))!
    const wat = readFileSync(new URL('porter-kernel.wat', here), 'utf8')
    expect(readFileSync(new URL('porter-kernel-wasm.ts', here), 'utf8')).toBe(kernelSource(entry, await assembleKernel(wat)))
  })

  it("stems NLTK's 23,531-word Porter vocabulary and every lower-case WordNet lemma as the JS rules do", () => {
    const words = new Set<string>()
    const vocabulary = gunzipSync(readFileSync(fixturePath('nltk-porter/porter_vocabulary.txt.gz'))).toString('utf8')
    for (const word of vocabulary.split('\n')) if (takes(word)) words.add(word)
    const wordnet = JSON.parse(gunzipSync(readFileSync(new URL('../../../../data/wordnet-3.0-meteor.json.gz', import.meta.url))).toString('utf8')) as {
      lemmas: Record<string, string>
    }
    for (const pos of ['n', 'v', 'a', 'r']) for (const word of wordnet.lemmas[pos]!.split('\n')) if (takes(word)) words.add(word)
    expect(words.size).toBeGreaterThan(140_000)
    expect(differences(kernel, words)).toEqual([])
  })

  it('stems random words built from the suffixes the rules test as the JS rules do', () => {
    const rand = random(33)
    const letters = 'abcdeiouyyyswxzlt*-0'
    const words = new Set<string>()
    while (words.size < 60_000) {
      let word = ''
      for (let k = Math.floor(rand() * 6); k > 0; k--) word += letters[Math.floor(rand() * letters.length)]
      for (let k = Math.floor(rand() * 3); k > 0; k--) word += SUFFIXES[Math.floor(rand() * SUFFIXES.length)]
      if (word.length >= 3) words.add(word)
    }
    expect(differences(kernel, words)).toEqual([])
  })

  it('returns the word itself when no rule changes it, and a new string only for the letters a rule wrote', () => {
    const word = ['cat', 'alg'].join('') // made at run time: not the literal the test compares with
    expect(kernel.stem(word)).toBe('catalg')
    expect(kernel.stem('relational')).toBe('relat')
    expect(kernel.stem('conditional')).toBe('condit')
    expect(kernel.stem('hopping')).toBe('hop')
    expect(kernel.stem('filing')).toBe('file')
    expect(kernel.stem('a*ding')).toBe('ad')
    // a word after a longer one: the longer one's letters left in the kernel's memory must not show
    expect(kernel.stem('generalizations')).toBe('gener')
    expect(kernel.stem('ties')).toBe('tie')
  })

  it('leaves words past its size to the JS rules, with the same stems', () => {
    const long = `${'ab'.repeat(PORTER_KERNEL_MAX_UNITS / 2)}ational`
    expect(porterStemNltkUncached(long)).toBe(porterStepsNltkJs(long))
    expect(porterStem(long)).toBe(porterStepsNltkJs(long))
    expect(porterStem(long).length).toBeLessThan(long.length)
    const longest = `${'x'.repeat(PORTER_KERNEL_MAX_UNITS - 7)}ational`
    expect(kernel.stem(longest)).toBe(porterStepsNltkJs(longest))
  })

  it('routes only lower-case ASCII through the kernel; capitals and non-ASCII keep the JS rules', () => {
    expect(porterStem('Skies')).toBe('ski')
    expect(porterStem('RELATIONAL', 'nltk', { lowercase: false })).toBe('RELATIONAL')
    expect(porterStem('relationalé')).toBe(porterStepsNltkJs('relationalé'))
    expect(porterStem('hopefully', 'original')).toBe('hopefulli')
  })
})
