// The word, LCS, METEOR, Porter and WordNet kernels inside Jest's vm context (its own globals and realm): they must compile there,
// Node's Buffer must write into the word kernel's memory (an ArrayBuffer of that realm), and rougeScore and meteorScore
// must give what they give on their JS paths (a non-ASCII text, or the words given as an array).
import { lcsIndices, rougeScore } from '../../src/generation/rouge.js'
import { LcsKernel } from '../../src/generation/lcs-kernel.js'
import { meteorScore } from '../../src/generation/meteor.js'
import { MeteorKernel } from '../../src/generation/meteor-kernel.js'
import { WordKernel } from '../../src/generation/word-kernel.js'
import { porterStepsNltkJs } from '../../src/generation/stemmers/porter.js'
import { PorterKernel } from '../../src/generation/stemmers/porter-kernel.js'
import { visitSynonymNames, wordNetFormEntry, wordNetKernel } from '../../src/generation/wordnet.js'

describe('word, LCS, METEOR, Porter and WordNet kernels under Jest', () => {
  it('compile and score as the JS path does', () => {
    expect(WordKernel.create('python-split', () => 0)).not.toBeNull()
    expect(LcsKernel.create()).not.toBeNull()
    expect(
      MeteorKernel.create(
        () => 0,
        () => [],
        () => -1,
      ),
    ).not.toBeNull()
    const candidate = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'
    const reference = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
    const viaKernels = rougeScore(candidate, reference, { types: ['rougeL'], stemmer: true }).rougeL!
    expect(viaKernels.value).toBe(0.8421052631578947)
    // the same texts with a non-ASCII character that gives no token: the JS tokenizer
    const viaJs = rougeScore(`${candidate} é`, `${reference} é`, { types: ['rougeL'], stemmer: true }).rougeL!
    expect(viaJs.details).toEqual(viaKernels.details)
    expect(lcsIndices([1, 2, 3, 4, 5], [2, 5, 3, 4])).toEqual([1, 2, 3])
    const hypothesis = 'It is a guide to action which ensures that the military always obeys the commands of the party.'
    const guide = 'It is a guide to action that ensures that the military will forever heed Party commands.'
    expect(JSON.stringify(meteorScore(hypothesis, [guide]))).toBe(JSON.stringify(meteorScore(hypothesis.split(' '), [guide.split(' ')])))
    // all three stages (exact, stem: commands/commands, synonym: obeys/heed after stemming) and two references
    const other = 'It is the guiding principle which guarantees the military forces always being under the command of the Party.'
    const viaKernel = meteorScore(hypothesis, [guide, other])
    expect(viaKernel.details.matches.stem + viaKernel.details.matches.synonym).toBeGreaterThan(0)
    expect(JSON.stringify(viaKernel)).toBe(JSON.stringify(meteorScore(hypothesis.split(' '), [guide.split(' '), other.split(' ')])))
  })

  it('Porter: compiles, and its typed array of this realm writes into the kernel memory', () => {
    const porter = PorterKernel.create()!
    expect(porter).not.toBeNull()
    for (const word of ['relational', 'generalizations', 'hopping', 'ties', 'cat', 'a*ding', 'conditionally', 'skies']) {
      expect(porter.stem(word)).toBe(porterStepsNltkJs(word))
    }
  })

  it("WordNet: compiles over the loaded data and gives the JS lookup's keys", () => {
    const wordnet = wordNetKernel()!
    expect(wordnet).not.toBeNull()
    for (const word of ['obey', 'heed', 'command', 'geese', 'running', 'better', 'larg']) {
      const expected: number[] = []
      visitSynonymNames(word, (text, start, end) => {
        if (!/[A-Z]/.test(text.slice(start, end))) expected.push(wordNetFormEntry(text, start, end))
      })
      const keys: number[] = []
      expect(wordnet.synonymKeys(word, keys)).toBe(true)
      expect(keys).toEqual(expected)
      expect(wordnet.formEntry(word)).toBe(wordNetFormEntry(word))
    }
  })
})
