// ROUGE's WebAssembly kernels (the tokenizer and the LCS path) inside Jest's vm context (its own globals and realm):
// they must compile there, Node's Buffer must write into the tokenizer's memory (an ArrayBuffer of that realm), and
// rougeScore must give what it gives on the JS path (a non-ASCII text takes it).
import { lcsIndices, rougeScore } from '../../src/generation/rouge.js'
import { LcsKernel } from '../../src/generation/lcs-kernel.js'
import { RougeKernel } from '../../src/generation/rouge-kernel.js'

describe('ROUGE kernels under Jest', () => {
  it('compile and score as the JS path does', () => {
    expect(RougeKernel.create(() => 0)).not.toBeNull()
    expect(LcsKernel.create()).not.toBeNull()
    const candidate = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'
    const reference = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
    const viaKernels = rougeScore(candidate, reference, { types: ['rougeL'], stemmer: true }).rougeL!
    expect(viaKernels.value).toBe(0.8421052631578947)
    // the same texts with a non-ASCII character that gives no token: the JS tokenizer
    const viaJs = rougeScore(`${candidate} é`, `${reference} é`, { types: ['rougeL'], stemmer: true }).rougeL!
    expect(viaJs.details).toEqual(viaKernels.details)
    expect(lcsIndices([1, 2, 3, 4, 5], [2, 5, 3, 4])).toEqual([1, 2, 3])
  })
})
