// BLEU's WebAssembly kernel inside Jest's vm context (its own globals and realm): it must compile there, and Node's
// Buffer must write into the kernel's memory (an ArrayBuffer of that realm), so sentenceBleu counts as the JS path
// (bleuSegments) does.
import { bleuSegments, bleuStats, sentenceBleu } from '../../src/generation/bleu.js'
import { BleuKernel } from '../../src/generation/bleu-kernel.js'

describe('BLEU kernel under Jest', () => {
  it('compiles and counts as the JS path does', () => {
    expect(BleuKernel.get()).not.toBeNull()
    const pairs: Array<[string, string[]]> = [
      ['The cat sat on the mat, in 2024.', ['The cat sat on a mat in 2024.', 'A cat, on the mat.']],
      ['Élan\u00a0vital — 中文 😀 U.S. 3.5-4', ['élan vital 中文 😀 U.S. 3.5 - 4']],
      ['', ['nothing here']],
    ]
    for (const [candidate, refs] of pairs) {
      const js = bleuSegments([candidate], [refs]).segments[0]!
      const d = js.details
      expect(bleuStats(candidate, refs)).toEqual([d.sysLen, d.refLen, ...d.counts, ...d.totals])
      expect(sentenceBleu(candidate, refs).value).toBe(js.value)
    }
  })
})
