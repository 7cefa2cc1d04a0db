// METEOR's WebAssembly alignment (src/generation/meteor-kernel.wat), which meteorScore uses for string inputs of ASCII
// text: the kernel alone against NLTK's loops written out on strings, and meteorScore's kernel path against its JS path
// (the same words given as token arrays) on the golden cases, random texts and texts that make its tables grow.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { assembleKernel, kernelSource, KERNELS } from '../../../scripts/wasm-source.mjs'
import { mulberry32 } from '../../../src/eval-set/statistics.js'
import { MeteorKernel, STEM_STAGE, SYNONYM_STAGE } from '../../../src/generation/meteor-kernel.js'
import { meteorScore, singleMeteorScore, type MeteorOptions } from '../../../src/generation/meteor.js'
import { loadWordNet, setWordNetDataPath } from '../../../src/generation/wordnet.js'
import { pySplit } from '../../../src/text/python-string.js'
import { loadFixture } from '../../parity/fixtures/load.js'

const here = new URL('../../../src/generation/', import.meta.url)

/**
 * NLTK 3.8's three stages as its loops read (`_enum_align_words`), on strings: candidate positions from last to
 * first, each taking the last unaligned reference position that qualifies; after the stem stage the remaining words
 * are their stems. Returns per candidate position `4 · j + stage`, or -1.
 */
function nltkCodes(hyp: readonly string[], ref: readonly string[], stem: (word: string) => string, synonyms: (word: string) => readonly string[], flags: number): number[] {
  const codes = hyp.map(() => -1)
  const refFree = ref.map(() => true)
  let hw = [...hyp]
  let rw = [...ref]
  const stage = (n: number, qualifies: (word: string, reference: string) => boolean): number => {
    let found = 0
    for (let i = hyp.length - 1; i >= 0; i--) {
      if (codes[i] !== -1) continue
      for (let j = ref.length - 1; j >= 0; j--) {
        if (!refFree[j] || !qualifies(hw[i]!, rw[j]!)) continue
        codes[i] = 4 * j + n
        refFree[j] = false
        found++
        break
      }
    }
    return found
  }
  let m = stage(1, (a, b) => a === b)
  const open = () => m < hyp.length && m < ref.length
  if (flags & STEM_STAGE && open()) {
    hw = hw.map((word, i) => (codes[i] === -1 ? stem(word) : word))
    rw = rw.map((word, j) => (refFree[j] ? stem(word) : word))
    m += stage(2, (a, b) => a === b)
  }
  if (flags & SYNONYM_STAGE && open()) stage(3, (a, b) => a === b || synonyms(a).includes(b))
  return codes
}

/**
 * A kernel over a vocabulary of strings made as words come: stems and synonyms from the given maps, and form entries
 * for the words `forms` holds (a synonym name that is no form is passed by place, as meteor.ts does with other data).
 */
function kernelWith(stems: Map<string, string>, synonymMap: Map<string, string[]>, forms: readonly string[]) {
  const words: string[] = []
  const places = new Map<string, number>()
  const place = (word: string): number => {
    let p = places.get(word)
    if (p === undefined) {
      p = words.length
      places.set(word, p)
      words.push(word)
    }
    return p
  }
  const entry = (word: string): number => forms.indexOf(word)
  const asked = { stems: 0, synonyms: 0 }
  const kernel = MeteorKernel.create(
    (p) => {
      asked.stems++
      return place(stems.get(words[p]!) ?? words[p]!)
    },
    (p) => {
      asked.synonyms++
      return (synonymMap.get(words[p]!) ?? []).map((name) => (entry(name) >= 0 ? entry(name) : -(place(name) + 1)))
    },
    (p) => entry(words[p]!),
  )
  if (kernel === null) throw new Error('no WebAssembly in this runtime')
  const align = (hyp: readonly string[], ref: readonly string[], flags: number) => {
    hyp.forEach((word, i) => (kernel.hyp[i] = place(word)))
    ref.forEach((word, j) => (kernel.ref[j] = place(word)))
    const m = kernel.align(hyp.length, ref.length, flags, words.length)
    return { m, codes: Array.from(kernel.codes.subarray(0, hyp.length)), result: Array.from(kernel.result) }
  }
  // what NLTK's loops give with the same stems and synonyms
  const expected = (hyp: readonly string[], ref: readonly string[], flags: number) =>
    nltkCodes(
      hyp,
      ref,
      (w) => stems.get(w) ?? w,
      (w) => synonymMap.get(w) ?? [],
      flags,
    )
  return { kernel, align, asked, expected }
}

describe('METEOR kernel', () => {
  it('is the module its .wat assembles to', async () => {
    const kernel = KERNELS.find((k) => k.wat.endsWith('meteor-kernel.wat'))!
    const wat = readFileSync(new URL('meteor-kernel.wat', here), 'utf8')
    expect(readFileSync(new URL('meteor-kernel-wasm.ts', here), 'utf8')).toBe(kernelSource(kernel, await assembleKernel(wat)))
  })

  it("aligns as NLTK's loops do on random words, with names that are forms and names that are not", () => {
    const next = mulberry32(33)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!
    const alphabet = ['ab', 'abs', 'ac', 'acs', 'b', 'bs', 'c', 'd', 'e', 'f', 'g', 'gs']
    // a word ending in s stems to the word without it; synonyms join a few words both ways and one way
    const stems = new Map(alphabet.filter((w) => w.endsWith('s')).map((w) => [w, w.slice(0, -1)]))
    const synonymMap = new Map<string, string[]>([
      ['ab', ['c', 'd']],
      ['c', ['ab', 'e']],
      ['d', ['f']],
      ['e', ['g', 'x']],
      ['g', ['b']],
    ])
    // 'd' and 'x' are no forms: they are passed by place
    const forms = ['ab', 'b', 'c', 'e', 'f', 'g', 'ac']
    const { align, expected: nltk } = kernelWith(stems, synonymMap, forms)
    for (let round = 0; round < 3000; round++) {
      const hyp = Array.from({ length: Math.floor(next() * 12) }, () => pick(alphabet))
      const ref = Array.from({ length: Math.floor(next() * 12) }, () => pick(alphabet))
      const flags = pick([0, STEM_STAGE, SYNONYM_STAGE, STEM_STAGE | SYNONYM_STAGE])
      const expected = nltk(hyp, ref, flags)
      const got = align(hyp, ref, flags)
      expect(got.codes, JSON.stringify({ hyp, ref, flags })).toEqual(expected)
      const byStage = [1, 2, 3].map((stage) => expected.filter((code) => code >= 0 && (code & 3) === stage).length)
      expect(got.result.slice(0, 3)).toEqual(byStage)
      expect(got.m).toBe(byStage[0]! + byStage[1]! + byStage[2]!)
    }
  })

  it('forgets a stage left half done by a call out that threw, and aligns the next pair right', () => {
    const synonymMap = new Map([['c', ['ab']]])
    const failing = new Map<string, string[]>()
    Object.defineProperty(failing, 'get', {
      value: (word: string) => {
        if (word === 'boom') throw new Error('no data')
        return synonymMap.get(word)
      },
    })
    const { align, expected } = kernelWith(new Map(), failing, ['ab', 'c'])
    // the reference words are listed by the synonym stage before the candidate word's synonyms are asked
    expect(() => align(['boom'], ['ab', 'c', 'x'], SYNONYM_STAGE)).toThrow('no data')
    expect(align(['x', 'x'], ['ab', 'c', 'x'], SYNONYM_STAGE).codes).toEqual([-1, 4 * 2 + 1])
    expect(align(['c', 'ab'], ['ab', 'c', 'x'], SYNONYM_STAGE).codes).toEqual(expected(['c', 'ab'], ['ab', 'c', 'x'], SYNONYM_STAGE))
    expect(align(['c'], ['x', 'ab'], SYNONYM_STAGE).codes).toEqual([4 * 1 + 3])
  })

  it('asks for a stem or a synonym list once per word, and keeps them as its tables grow mid-call', () => {
    // 4,000 distinct words in one call: places (4,096 at first) and the arena (16,384) double while the stages run
    const n = 4000
    const hyp = Array.from({ length: n }, (_, i) => `w${i}s`)
    const ref = Array.from({ length: n }, (_, i) => `w${(i * 7919) % n}`)
    const stems = new Map(hyp.map((w) => [w, `${w.slice(0, -1)}x`]))
    const synonymMap = new Map(hyp.map((w, i) => [`${w.slice(0, -1)}x`, [`w${(i + 1) % n}`, `name${i}`, `w${(i * 3) % n}`, `other${i}`]]))
    const { align, asked, expected: nltk } = kernelWith(stems, synonymMap, [])
    const flags = STEM_STAGE | SYNONYM_STAGE
    const expected = nltk(hyp, ref, flags)
    expect(align(hyp, ref, flags).codes).toEqual(expected)
    const first = { ...asked }
    expect(align(hyp, ref, flags).codes).toEqual(expected)
    expect(asked).toEqual(first)
  })
})

describe('meteorScore on the kernel path', () => {
  interface GoldenCase {
    hypothesis: string
    references: string[]
  }
  const golden = loadFixture<{ cases: GoldenCase[] }>('generation.json').cases

  const split = pySplit
  const viaJs = (hypothesis: string, references: readonly string[], options?: MeteorOptions) => JSON.stringify(meteorScore(split(hypothesis), references.map(split), options))
  const viaKernel = (hypothesis: string, references: readonly string[], options?: MeteorOptions) => JSON.stringify(meteorScore(hypothesis, references, options))

  it('gives what the JS path gives on the golden cases, details included, under every stage setting', () => {
    const settings: (MeteorOptions | undefined)[] = [undefined, { stemmer: false }, { synonyms: false }, { stemmer: false, synonyms: false }]
    for (const options of settings) {
      for (const c of golden) expect(viaKernel(c.hypothesis, c.references, options), c.hypothesis).toBe(viaJs(c.hypothesis, c.references, options))
    }
  })

  it('gives what the JS path gives on random texts of WordNet-rich words, one to three references', () => {
    const words =
      'the a big large fast quick run running runs ran car cars automobile auto machine party Party begin start commence task job work worked works model models score scores good well better best'.split(
        ' ',
      )
    const next = mulberry32(7)
    const text = () => Array.from({ length: 1 + Math.floor(next() * 30) }, () => words[Math.floor(next() * words.length)]!).join(next() < 0.5 ? ' ' : '  ')
    for (let round = 0; round < 400; round++) {
      const hypothesis = text()
      const references = Array.from({ length: 1 + Math.floor(next() * 3) }, text)
      expect(viaKernel(hypothesis, references), hypothesis).toBe(viaJs(hypothesis, references))
    }
  })

  it("gives what the JS path gives on long texts (the JS path's indexed synonym stage)", () => {
    const next = mulberry32(11)
    const words = golden.flatMap((c) => split(c.hypothesis))
    const text = () => Array.from({ length: 3000 }, () => words[Math.floor(next() * words.length)]!).join(' ')
    const hypothesis = text()
    const references = [text(), text()]
    expect(viaKernel(hypothesis, references)).toBe(viaJs(hypothesis, references))
  })

  it('singleMeteorScore takes the same path and agrees', () => {
    const c = golden[0]!
    expect(JSON.stringify(singleMeteorScore(c.hypothesis, c.references[0]!))).toBe(JSON.stringify(singleMeteorScore(split(c.hypothesis), split(c.references[0]!))))
  })

  it('reads WordNet only when the synonym stage runs, as the JS path does', () => {
    setWordNetDataPath('/nonexistent/wordnet.json.gz')
    try {
      // every word aligned exactly: no synonym stage, so no data needed on either path
      expect(meteorScore('the cat sat', 'the cat sat').value).toBe(meteorScore(['the', 'cat', 'sat'], [['the', 'cat', 'sat']]).value)
      expect(() => meteorScore('fast', 'quick')).toThrow(/nonexistent/)
      expect(() => meteorScore(['fast'], [['quick']])).toThrow(/nonexistent/)
    } finally {
      setWordNetDataPath(undefined)
    }
    expect(meteorScore('fast', 'quick').details.matches.synonym).toBe(1)
  })

  it('starts over with the WordNet data and still agrees', () => {
    const c = golden[1]!
    const before = viaKernel(c.hypothesis, c.references)
    // the same file again: the vocabulary and the kernel's tables start over
    setWordNetDataPath(loadWordNet().path)
    try {
      expect(viaKernel(c.hypothesis, c.references)).toBe(before)
      expect(viaJs(c.hypothesis, c.references)).toBe(before)
    } finally {
      setWordNetDataPath(undefined)
    }
  })
})
