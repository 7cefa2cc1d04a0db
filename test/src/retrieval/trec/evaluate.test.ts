import { MetricInputError } from '../../../../src/errors.js'
import {
  evaluateTrec,
  formatTrecEval,
  parseQrels,
  parseQrelsStream,
  parseRun,
  parseRunStream,
  TREC_MEASURE_SETS,
  trecEval,
  TrecEvalError,
} from '../../../../src/retrieval/trec/index.js'
import { formatFixed, formatLong, padRight } from '../../../../src/retrieval/trec/c-format.js'
import { encodeUtf8, hashBytes } from '../../../../src/retrieval/trec/bytes.js'

function evalError(fn: () => unknown): TrecEvalError {
  try {
    fn()
  } catch (error) {
    if (error instanceof TrecEvalError) return error
    throw error
  }
  throw new Error('expected a TrecEvalError')
}

/** relstring of one topic: the ranked judgments, '-' for documents missing from the qrels. */
function ranking(qrelsText: string, runText: string, options = {}): string {
  const res = trecEval(parseQrels(qrelsText), parseRun(runText), ['relstring.100'], options)
  return res.relstring?.[res.topics[0] as string] ?? ''
}

describe('trecEval ranking (trec_eval form_res_rels)', () => {
  it('sorts by score descending whatever the file order and the rank field say', () => {
    const qrels = 'q 0 a 1\nq 0 b 2\nq 0 c 3\n'
    expect(ranking(qrels, 'q Q0 a 1 0.1 r\nq Q0 b 2 0.3 r\nq Q0 c 3 0.2 r\n')).toBe('231')
  })

  it('breaks ties by docno descending (strcmp byte order, not UTF-16 order)', () => {
    const qrels = 'q 0 d1 1\nq 0 d2 2\nq 0 d10 3\n'
    expect(ranking(qrels, 'q Q0 d1 1 5 r\nq Q0 d10 2 5 r\nq Q0 d2 3 5 r\n')).toBe('231')
    // U+FF5E is EF BD 9E in UTF-8, U+1F600 is F0 9F 98 80: bytes put the emoji last in ascending order (so
    // first here), while UTF-16 code units (0xFF5E vs 0xD83D) would order them the other way.
    expect(ranking('q 0 \uFF5E 1\nq 0 \u{1F600} 2\n', 'q Q0 \uFF5E 1 1 r\nq Q0 \u{1F600} 2 1 r\n')).toBe('21')
  })

  it('matches docnos by their bytes, as strcmp does, also when they are not valid UTF-8', async () => {
    // a Latin-1 'é' (0xE9) in both files: the same bytes, so the same docno (it decodes to U+FFFD for display)
    const bytes = (text: string) => [Uint8Array.from(text, (ch) => ch.charCodeAt(0))]
    const qrels = await parseQrelsStream(bytes('q 0 caf\xe9 1\nq 0 cafe 0\n'))
    const run = await parseRunStream(bytes('q Q0 cafe 1 2 r\nq Q0 caf\xe9 2 1 r\n'))
    expect(trecEval(qrels, run, ['num_rel_ret', 'recip_rank']).perQuery.q).toEqual({ num_rel_ret: 1, recip_rank: 0.5 })
    expect(qrels.topics.get('q')).toEqual({ docnos: ['caf\uFFFD', 'cafe'], rels: [1, 0] })
  })

  it('treats scores equal as doubles as ties ("1.0" and "1.00")', () => {
    expect(ranking('q 0 a 1\nq 0 b 2\n', 'q Q0 b 1 1.00 r\nq Q0 a 2 1.0 r\n')).toBe('21')
    expect(ranking('q 0 a 1\nq 0 b 2\n', 'q Q0 a 1 1.0000000001 r\nq Q0 b 2 1.0 r\n')).toBe('12')
  })

  it('marks documents missing from the qrels "-" and negative judgments "." (unjudged)', () => {
    expect(ranking('q 0 a 1\nq 0 b -1\nq 0 c 0\n', 'q Q0 x 1 4 r\nq Q0 b 2 3 r\nq Q0 c 3 2 r\nq Q0 a 4 1 r\n')).toBe('-.01')
  })

  it('evaluates only the first maxRetrieved documents (-M)', () => {
    const res = trecEval(parseQrels('q 0 a 1\nq 0 b 1\n'), parseRun('q Q0 x 1 3 r\nq Q0 a 2 2 r\nq Q0 b 3 1 r\n'), ['num_ret', 'num_rel_ret', 'map'], { maxRetrieved: 2 })
    expect(res.perQuery.q).toEqual({ num_ret: 2, num_rel_ret: 1, map: 0.25 })
  })

  it('drops unjudged documents before evaluating with judgedOnly (-J)', () => {
    const res = trecEval(parseQrels('q 0 a 1\nq 0 b 0\n'), parseRun('q Q0 x 1 3 r\nq Q0 a 2 2 r\nq Q0 b 3 1 r\n'), ['num_ret', 'recip_rank'], { judgedOnly: true })
    expect(res.perQuery.q).toEqual({ num_ret: 2, recip_rank: 1 })
  })
})

describe('trecEval topics and refusals (trec_eval 10.0)', () => {
  const qrels = parseQrels('2 0 a 1\n10 0 b 1\n1 0 c 1\n')

  it('evaluates the qrels topics in strcmp order and ignores run-only topics', () => {
    const res = trecEval(qrels, parseRun('10 Q0 b 1 1 r\n1 Q0 c 1 1 r\n2 Q0 a 1 1 r\n99 Q0 z 1 1 r\n'), ['num_q', 'map'])
    expect(res.topics).toEqual(['1', '10', '2'])
    expect(res.mean).toEqual({ num_q: 3, map: 1 })
  })

  it('orders topic ids by their UTF-8 bytes, with or without characters outside the BMP', () => {
    // U+FF5E is EF BD 9E in UTF-8 and U+1F600 F0 9F 98 80: byte order puts U+FF5E first, UTF-16 order the emoji
    const ids = ['\uFF5E', '\u{1F600}', 'é', 'z', 'Z', '10', '1']
    const byBytes = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    const text = (list: string[]) => list.map((q) => `${q} 0 d 1\n`).join('')
    const run = parseRun(ids.map((q) => `${q} Q0 d 1 1 r\n`).join(''))
    expect(trecEval(parseQrels(text(ids)), run, ['map']).topics).toEqual(byBytes)
    const bmp = ids.filter((q) => q !== '\u{1F600}')
    expect(trecEval(parseQrels(text(bmp)), run, ['map']).topics).toEqual(byBytes.filter((q) => q !== '\u{1F600}'))
  })

  it('refuses a qrels topic without results unless completeTopics (-c), which scores it 0', () => {
    const run = parseRun('1 Q0 c 1 1 r\n2 Q0 a 1 1 r\n')
    const error = evalError(() => trecEval(qrels, run, ['map']))
    expect([error.code, error.topic]).toEqual(['missing-topic', '10'])
    expect(error.message).toContain('completeTopics')
    const res = trecEval(qrels, run, ['num_q', 'num_ret', 'num_rel', 'map', 'unj.5', 'utility', 'relstring'], { completeTopics: true })
    expect(res.perQuery['10']).toEqual({ num_ret: 0, num_rel: 1, map: 0, unj_5: 0, utility: 0 })
    expect(res.relstring?.['10']).toBe('')
    expect(res.mean.num_q).toBe(3)
    expect(res.mean.map).toBeCloseTo(2 / 3, 15)
  })

  it('refuses a docno retrieved twice for a topic, naming the smallest one (trec_eval exits 4)', () => {
    const run = parseRun('1 Q0 c 1 3 r\n1 Q0 z 2 2 r\n1 Q0 y 3 1 r\n1 Q0 z 4 0 r\n1 Q0 y 5 0 r\n2 Q0 a 1 1 r\n10 Q0 b 1 1 r\n')
    const error = evalError(() => trecEval(qrels, run, ['map']))
    expect([error.code, error.topic, error.docno]).toEqual(['duplicate-docno', '1', 'y'])
    // like trec_eval, only the evaluated documents are checked: -M 3 cuts both repeats off
    expect(trecEval(qrels, run, ['map'], { maxRetrieved: 3 }).mean.map).toBe(1)
  })

  it('tells apart docnos whose hashes share a ranking table key, and still finds their duplicates', () => {
    // the ranking's table keys a docno by its FNV-1a hash with the low bit set: find two docnos that collide there
    const byKey = new Map<number, string>()
    let pair: [string, string] | undefined
    for (let i = 0; pair === undefined; i += 1) {
      const docno = `d${i}`
      const key = hashBytes(encodeUtf8(docno), 0, docno.length) | 1
      const other = byKey.get(key)
      if (other === undefined) byKey.set(key, docno)
      else pair = [other, docno]
    }
    const [a, b] = pair
    const qrels = parseQrels(`1 0 ${a} 1\n1 0 ${b} 0\n1 0 x 1\n`)
    const ranked = (first: string, second: string) => parseRun(`1 Q0 ${first} 1 3 r\n1 Q0 ${second} 2 2 r\n1 Q0 x 3 1 r\n`)
    expect(trecEval(qrels, ranked(a, b), ['relstring.3']).relstring?.['1']).toBe('101')
    expect(trecEval(qrels, ranked(b, a), ['relstring.3']).relstring?.['1']).toBe('011')
    const error = evalError(() => trecEval(qrels, parseRun(`1 Q0 ${a} 1 3 r\n1 Q0 ${b} 2 2 r\n1 Q0 ${b} 3 1 r\n`), ['map']))
    expect([error.code, error.docno]).toEqual(['duplicate-docno', b])
  })

  it('refuses a docno judged twice for an evaluated topic', () => {
    const error = evalError(() => trecEval(parseQrels('1 0 a 1\n1 0 a 0\n'), parseRun('1 Q0 a 1 1 r\n'), ['P.1']))
    expect([error.code, error.topic, error.docno]).toEqual(['duplicate-qrels-docno', '1', 'a'])
  })

  it('refuses empty qrels', () => {
    expect(evalError(() => trecEval(parseQrels('# nothing\n'), parseRun('1 Q0 a 1 1 r\n'), ['map'])).code).toBe('empty-qrels')
  })
})

describe('trecEval measures', () => {
  const qrels = parseQrels('q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\n')
  const run = parseRun('q1 Q0 d2 1 0.9 r\nq1 Q0 d1 2 0.9 r\nq1 Q0 d3 3 0.1 r\n')

  it('matches its documented example', () => {
    const { perQuery, mean } = trecEval(qrels, run, ['P.1,2', 'recip_rank', 'ndcg_cut.3'])
    expect(perQuery.q1).toEqual({ recip_rank: 0.5, P_1: 0, P_2: 0.5, ndcg_cut_3: (1 / Math.log2(3) + 2 / 2) / (2 + 1 / Math.log2(3)) })
    expect(mean.P_2).toBe(0.5)
  })

  it('uses trec_eval’s default cutoffs for a bare name and sorts given cutoffs', () => {
    expect(Object.keys(trecEval(qrels, run, ['P']).mean)).toEqual(['P_5', 'P_10', 'P_15', 'P_20', 'P_30', 'P_100', 'P_200', 'P_500', 'P_1000'])
    expect(Object.keys(trecEval(qrels, run, ['success', 'unj']).mean)).toEqual(['success_1', 'success_5', 'success_10', 'unj_5', 'unj_10', 'unj_20'])
    expect(Object.keys(trecEval(qrels, run, ['recall.10,5', 'iprec_at_recall.0.5,.25']).mean)).toEqual([
      'iprec_at_recall_0.25',
      'iprec_at_recall_0.50',
      'recall_5',
      'recall_10',
    ])
  })

  it('keeps the first parameters given for a measure, as trec_eval does', () => {
    expect(Object.keys(trecEval(qrels, run, ['P.5', 'P.10']).mean)).toEqual(['P_5'])
  })

  it('expands the official and all_trec sets in trec_eval’s print order', () => {
    const official = evaluateTrec(qrels, run, ['official']).columns.map((c) => c.name)
    expect(official.slice(0, 10)).toEqual(['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank'])
    expect(official).toHaveLength(10 + 11 + 9)
    // all_trec: 99 summary values (as in the golden all_trec runs) and 96 per-topic ones (no runid, num_q, gm_*; + relstring)
    const all = evaluateTrec(qrels, run, ['all_trec']).columns
    expect(all.filter((c) => c.summary)).toHaveLength(99)
    expect(all.filter((c) => c.perQuery)).toHaveLength(96)
    expect(TREC_MEASURE_SETS.all_trec).toContain('ndcg_cut')
  })

  it('names parameterised single-value measures after their parameter string', () => {
    const names = Object.keys(trecEval(qrels, run, ['ndcg.1=3,2=9', 'utility.2,-1,0,0', 'set_F.0.5', 'rbp.p=0.5']).mean)
    expect(names).toEqual(['utility_2,-1,0,0', 'ndcg_1=3,2=9', 'set_F_0.5', 'rbp_p=0.5'])
  })

  it('scores ndcg_cut with the qrels grades whatever the relevance level (-l)', () => {
    const at1 = trecEval(qrels, run, ['ndcg_cut.3', 'P.3'])
    const at2 = trecEval(qrels, run, ['ndcg_cut.3', 'P.3'], { relevanceLevel: 2 })
    expect(at2.mean.ndcg_cut_3).toBe(at1.mean.ndcg_cut_3)
    expect([at1.mean.P_3, at2.mean.P_3]).toEqual([2 / 3, 1 / 3])
  })

  it('handles huge judgment values without walking every level below them', () => {
    const big = trecEval(parseQrels('q 0 a 1000000000\nq 0 b 1\nq 0 c 0\n'), parseRun('q Q0 b 1 2 r\nq Q0 a 2 1 r\n'), ['ndcg_cut.2', 'ndcg', 'bpref'], { relevanceLevel: 2 })
    const dcg = 1 / Math.log2(2) + 1e9 / Math.log2(3)
    const idcg = 1e9 / Math.log2(2) + 1 / Math.log2(3)
    expect(big.perQuery.q?.ndcg_cut_2).toBeCloseTo(dcg / idcg, 15)
    expect(big.perQuery.q?.ndcg).toBeCloseTo(dcg / idcg, 15)
    // -l 2: b (1) and c (0) are judged non-relevant; a comes after one of them: 1 - 1/min(2, 1)
    expect(big.perQuery.q?.bpref).toBe(0)
  })

  it('rejects unknown, unsupported and malformed measures', () => {
    const bad = (measures: string[], text: string) => expect(() => trecEval(qrels, run, measures)).toThrow(text)
    bad(['nope'], 'trecEval: Expected `measures` to be a trec_eval measure')
    bad(['prefs_simp'], 'preference and judgment-group measures are not implemented')
    bad(['P.'], 'parameters after the `.`')
    bad(['P.0,5'], 'positive cutoffs')
    bad(['P.5,5'], 'distinct cutoffs')
    bad(['utility.1,2'], 'four utility coefficients')
    bad(['ndcg.1=2=3'], '`level=gain')
    bad([], 'non-empty array')
  })

  it('rejects bad arguments with MetricInputError', () => {
    expect(() => trecEval({} as never, run, ['map'])).toThrow('trecEval: Expected `qrels` to be qrels from parseQrels')
    expect(() => trecEval(qrels, 'x' as never, ['map'])).toThrow(MetricInputError)
    expect(() => trecEval(qrels, run, ['map'], { maxRetrieved: 0 })).toThrow('Expected `maxRetrieved` to be a positive integer, got `0` (number)')
    expect(() => trecEval(qrels, run, ['map'], { relevanceLevel: 1.5 })).toThrow('Expected `relevanceLevel` to be an integer')
    expect(() => trecEval(qrels, run, ['map'], { numDocsInCollection: -1 })).toThrow('numDocsInCollection')
  })
})

describe('trec_eval text output', () => {
  it('prints %6.4f like glibc: half to even on exact binary ties, -0, nan, inf', () => {
    expect(formatFixed(0.03125, 4, 6)).toBe('0.0312')
    expect(formatFixed(0.09375, 4, 6)).toBe('0.0938')
    expect(formatFixed(0.15625, 4, 6)).toBe('0.1562')
    expect(formatFixed(0.031250000000000007, 4, 6)).toBe('0.0313')
    expect(formatFixed(-412.66666666666669, 4, 6)).toBe('-412.6667')
    expect(formatFixed(-0, 4, 6)).toBe('-0.0000')
    expect(formatFixed(Number.NaN, 4, 6)).toBe('   nan')
    expect(formatFixed(-Infinity, 4, 6)).toBe('  -inf')
    expect(formatFixed(0.125, 2, 3)).toBe('0.12')
    expect(formatFixed(1e21, 1)).toBe('1000000000000000000000.0')
    expect(formatLong(-3.9)).toBe('-3')
    expect(padRight('map', 22)).toBe(`map${' '.repeat(19)}`)
    expect(padRight('iprec_at_recall_0.00_long_name', 22)).toBe('iprec_at_recall_0.00_long_name')
  })

  it('prints per-topic lines with perQuery, then the summary, in trec_eval’s measure order', () => {
    const table = evaluateTrec(parseQrels('q 0 a 1\n'), parseRun('q Q0 a 1 1 myrun\n'), ['P.1', 'num_ret', 'runid', 'relstring'])
    expect(formatTrecEval(table, { perQuery: true })).toBe(
      [
        'num_ret               \tq\t1',
        'P_1                   \tq\t1.0000',
        "relstring             \tq\t'1'",
        'runid                 \tall\tmyrun',
        'num_ret               \tall\t1',
        'P_1                   \tall\t1.0000',
        '',
      ].join('\n'),
    )
    expect(formatTrecEval(table, { summary: false })).toBe('')
  })
})
