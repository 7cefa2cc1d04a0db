// The TER shift search scores a candidate from its changed rows only (forward rows joined to the
// backward costs of the current hypothesis), skips repeated moves, and reuses buffers across calls.
// The oracle here is the straightforward procedure, sacrebleu `lib_ter` written out: a whole banded
// matrix per candidate, every candidate scored, the ranking tuple compared in full.
import { describe, expect, test } from 'vitest'
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'
import { corpusTer, sentenceTer, translationEditRate, type TerOptions } from '../../../src/generation/ter/ter.js'
import { tokensTercom } from '../../../src/generation/ter/tokenizer-tercom.js'
import { pyRstrip } from '../../../src/text/python-string.js'

/** Banded edit distance with sacrebleu's tie order; returns the cost and the trace (m / s / i / d). */
function oracleDistance(h: number[], r: number[]): { cost: number; trace: string } {
  const n = h.length
  const m = r.length
  const INF = Number.MAX_SAFE_INTEGER
  const ratio = n > 0 ? m / n : 1
  const width = 25 < ratio / 2 ? Math.ceil(ratio / 2 + 25) : 25
  const cost: number[][] = []
  const op: string[][] = []
  for (let i = 0; i <= n; i++) {
    cost.push(Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : INF)))
    op.push(Array.from({ length: m + 1 }, () => (i === 0 ? 'i' : 'x')))
  }
  for (let i = 1; i <= n; i++) {
    const diag = Math.floor(i * ratio)
    const lo = Math.max(0, diag - width)
    const hi = i === n ? m + 1 : Math.min(m + 1, diag + width)
    for (let j = lo; j < hi; j++) {
      if (j === 0) {
        cost[i]![0] = cost[i - 1]![0]! + 1
        op[i]![0] = 'd'
        continue
      }
      const same = h[i - 1] === r[j - 1]
      const options: Array<[number, string]> = [
        [cost[i - 1]![j - 1]! + (same ? 0 : 1), same ? 'm' : 's'],
        [cost[i - 1]![j]! + 1, 'd'],
        [cost[i]![j - 1]! + 1, 'i'],
      ]
      for (const [c, o] of options) {
        if (cost[i]![j]! > c) {
          cost[i]![j] = c
          op[i]![j] = o
        }
      }
    }
  }
  let trace = ''
  let i = n
  let j = m
  while (i > 0 || j > 0) {
    const o = op[i]![j]!
    trace = o + trace
    if (o === 'm' || o === 's') {
      i--
      j--
    } else if (o === 'i') j--
    else if (o === 'd') i--
    else throw new Error('off the band')
  }
  return { cost: cost[n]![m]!, trace }
}

function oracleShift(words: number[], start: number, length: number, target: number): number[] {
  const sl = (a: number, b?: number): number[] => words.slice(a, b)
  if (target < start) return [...sl(0, target), ...sl(start, start + length), ...sl(target, start), ...sl(start + length)]
  if (target > start + length) return [...sl(0, start), ...sl(start + length, target), ...sl(start, start + length), ...sl(target)]
  return [...sl(0, start), ...sl(start + length, length + target), ...sl(start, start + length), ...sl(length + target)]
}

function oracleTer(hyp: number[], ref: number[]): number {
  if (ref.length === 0) return hyp.length
  let words = hyp
  let shifts = 0
  let checked = 0
  for (;;) {
    const { cost: pre, trace } = oracleDistance(words, ref)
    // sacrebleu flips the trace (rewrites the reference into the hypothesis): 'd' here consumes a hypothesis word
    const align = new Map<number, number>()
    const refErr: number[] = []
    const hypErr: number[] = []
    let ph = -1
    let pr = -1
    for (const o of trace) {
      if (o === 'm' || o === 's') {
        align.set(++pr, ++ph)
        hypErr.push(o === 's' ? 1 : 0)
        refErr.push(o === 's' ? 1 : 0)
      } else if (o === 'd') {
        ph++
        hypErr.push(1)
      } else {
        align.set(++pr, ph)
        refErr.push(1)
      }
    }
    const sum = (xs: number[], a: number, b: number): number => xs.slice(a, b).reduce((x, y) => x + y, 0)
    let best: { gain: number; length: number; start: number; target: number; words: number[] } | undefined
    const n = words.length
    const m = ref.length
    outer: for (let sh = 0; sh < n; sh++) {
      for (let sr = 0; sr < m; sr++) {
        if (Math.abs(sr - sh) > 50) continue
        let length = 0
        while (words[sh + length] === ref[sr + length] && length < 10) {
          length++
          if (sum(hypErr, sh, sh + length) !== 0 && sum(refErr, sr, sr + length) !== 0 && !(sh <= align.get(sr)! && align.get(sr)! < sh + length)) {
            let prev = -1
            for (let off = -1; off < length; off++) {
              let idx: number
              if (sr + off === -1) idx = 0
              else if (align.has(sr + off)) idx = align.get(sr + off)! + 1
              else break
              if (idx === prev) continue
              prev = idx
              const shifted = oracleShift(words, sh, length, idx)
              const gain = pre - oracleDistance(shifted, ref).cost
              checked++
              const c = { gain, length, start: sh, target: idx, words: shifted }
              const beats =
                best === undefined ||
                c.gain > best.gain ||
                (c.gain === best.gain &&
                  (c.length > best.length || (c.length === best.length && (c.start < best.start || (c.start === best.start && c.target < best.target)))))
              if (beats) best = c
            }
            if (checked >= 1000) break outer
          }
          if (n === sh + length || m === sr + length) break
        }
      }
    }
    if (checked >= 1000 || best === undefined || best.gain <= 0) break
    shifts++
    words = best.words
  }
  return shifts + oracleDistance(words, ref).cost
}

/** Word ids from a small vocabulary, so that blocks repeat and many shifts are tried. */
function sentence(rand: () => number, length: number, vocab: number): number[] {
  return Array.from({ length }, () => Math.floor(rand() * vocab))
}

/** A reference and a hypothesis made from it by swaps, block moves, edits and drops. */
function pair(rand: () => number, m: number, vocab: number): [number[], number[]] {
  const ref = sentence(rand, m, vocab)
  const hyp = [...ref]
  const edits = Math.floor(rand() * 6)
  for (let e = 0; e < edits && hyp.length > 1; e++) {
    const kind = Math.floor(rand() * 4)
    const at = Math.floor(rand() * hyp.length)
    if (kind === 0) hyp[at] = Math.floor(rand() * vocab)
    else if (kind === 1) hyp.splice(at, 1)
    else if (kind === 2) hyp.splice(at, 0, Math.floor(rand() * vocab))
    else {
      const len = 1 + Math.floor(rand() * 4)
      const block = hyp.splice(at, len)
      hyp.splice(Math.floor(rand() * (hyp.length + 1)), 0, ...block)
    }
  }
  return [hyp, ref]
}

describe('TER shift search against the straightforward procedure', () => {
  test.each([
    [1, 300, 1, 12, 6],
    [2, 300, 10, 40, 30],
    [3, 200, 1, 40, 4],
    [4, 60, 30, 90, 50],
  ])('seed %i: %i random pairs, reference lengths %i–%i, vocabulary %i', (seed, count, minLen, maxLen, vocab) => {
    const rand = random(seed)
    for (let c = 0; c < count; c++) {
      const m = minLen + Math.floor(rand() * (maxLen - minLen + 1))
      const [hyp, ref] = pair(rand, m, vocab)
      const got = translationEditRate(Int32Array.from(hyp), Int32Array.from(ref))
      expect({ hyp, ref, edits: got }).toEqual({ hyp, ref, edits: oracleTer(hyp, ref) })
    }
  })

  test('very unequal lengths (wide band), empty sides and a repeated word', () => {
    const rand = random(5)
    const cases: Array<[number[], number[]]> = [
      [[], [1, 2, 3]],
      [[1, 2, 3], []],
      [[], []],
      [Array(30).fill(7), Array(25).fill(7)],
      [sentence(rand, 3, 5), sentence(rand, 120, 5)],
      [sentence(rand, 110, 5), sentence(rand, 4, 5)],
      [sentence(rand, 70, 3), sentence(rand, 80, 3)],
    ]
    for (const [hyp, ref] of cases) expect(translationEditRate(Int32Array.from(hyp), Int32Array.from(ref))).toBe(oracleTer(hyp, ref))
  })

  test('buffers reused across calls of different shapes give the same results', () => {
    const rand = random(6)
    const pairs = Array.from({ length: 40 }, () => pair(rand, 2 + Math.floor(rand() * 60), 8))
    const first = pairs.map(([h, r]) => translationEditRate(Int32Array.from(h), Int32Array.from(r)))
    const again = [...pairs].reverse().map(([h, r]) => translationEditRate(Int32Array.from(h), Int32Array.from(r)))
    expect(again.reverse()).toEqual(first)
    // an input past the kept-buffer size takes its own buffers
    const [h, r] = pair(rand, 300, 20)
    expect(translationEditRate(Int32Array.from(h), Int32Array.from(r))).toBe(oracleTer(h, r))
  })

  test('any int32 word ids (the reference index hashes them)', () => {
    const rand = random(10)
    // an injective map onto large, negative and colliding-looking values
    const spread = (id: number): number => (id % 2 === 0 ? -(id * 65536 + 7) : 0x7fffffff - id * 1024)
    for (let c = 0; c < 150; c++) {
      const [hyp, ref] = pair(rand, 1 + Math.floor(rand() * 40), 12)
      const got = translationEditRate(Int32Array.from(hyp, spread), Int32Array.from(ref, spread))
      expect(got).toBe(oracleTer(hyp, ref))
    }
  })

  test('sentence TER on text', () => {
    expect(sentenceTer('The quick brown fox jumps over the dog lazy.', 'The quick brown fox jumps over the lazy dog.').numEdits).toBe(2)
  })
})

/** Text from a small vocabulary with mixed case, punctuation and assorted ASCII whitespace. */
function text(rand: () => number, words: number): string {
  const vocab = ['The', 'the', 'cat', 'CAT', 'sat', 'on', 'a', 'mat', 'dog.', '3.5', "it's", '(x)', 'a,b', 'Runs', '&amp;']
  const gaps = [' ', ' ', '  ', '\t', '\n', ' \x1c ']
  let s = ''
  for (let k = 0; k < words; k++) s += (k > 0 ? gaps[Math.floor(rand() * gaps.length)] : '') + vocab[Math.floor(rand() * vocab.length)]
  return rand() < 0.3 ? `${s} ` : s
}

describe('TER tokens as ids', () => {
  test('the ASCII scan gives what the general tokenizer path gives', () => {
    const rand = random(7)
    for (let c = 0; c < 300; c++) {
      const hyp = text(rand, Math.floor(rand() * 25))
      const ref = text(rand, Math.floor(rand() * 25))
      // U+3000 is Python whitespace: the same tokens, but the text is no longer ASCII
      expect({ hyp, ref, ter: sentenceTer(hyp, ref) }).toEqual({ hyp, ref, ter: sentenceTer(`${hyp}\u3000`, `${ref}\u3000`) })
    }
  })

  test.each<TerOptions>([{ normalized: true }, { normalized: true, noPunct: true }, { caseSensitive: true }, { noPunct: true, asianSupport: true }])(
    "every option path counts the tokenizer's own tokens (%o)",
    (options) => {
      const rand = random(8)
      const settings = { normalized: false, noPunct: false, asianSupport: false, caseSensitive: false, ...options }
      const idsOf = (ids: Map<string, number>, s: string): number[] => tokensTercom(pyRstrip(s), settings).map((w) => ids.get(w) ?? ids.set(w, ids.size).get(w)!)
      for (let c = 0; c < 100; c++) {
        // long runs of punctuation give more tokens than half the characters once normalised
        const hyp = rand() < 0.2 ? '.,'.repeat(200 + Math.floor(rand() * 200)) : text(rand, Math.floor(rand() * 25))
        const ref = text(rand, 1 + Math.floor(rand() * 25))
        const ids = new Map<string, number>()
        const h = idsOf(ids, hyp)
        const r = idsOf(ids, ref)
        expect(sentenceTer(hyp, ref, options).numEdits).toBe(oracleTer(h, r))
      }
    },
  )

  test('corpus TER sums what sentence TER gives per segment', () => {
    const rand = random(9)
    const hyps = Array.from({ length: 50 }, () => text(rand, Math.floor(rand() * 20)))
    const refs = Array.from({ length: 50 }, () => text(rand, 1 + Math.floor(rand() * 20)))
    const corpus = corpusTer(hyps, [refs])
    expect(corpus.numEdits).toBe(hyps.reduce((sum, h, i) => sum + sentenceTer(h, refs[i]!).numEdits, 0))
  })
})
