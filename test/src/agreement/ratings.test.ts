import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadRatings, parseRatings, RatingsParseError } from '../../../src/agreement/ratings.js'
import { MetricInputError } from '../../../src/errors.js'

/** The RatingsParseError thrown by `run`, for checking its file, line and field. */
function failure(run: () => unknown): RatingsParseError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(RatingsParseError)
    expect(error).toBeInstanceOf(MetricInputError)
    return error as RatingsParseError
  }
  throw new Error('expected a RatingsParseError')
}

const csv = (text: string) => parseRatings(text, { format: 'csv', source: 'ratings.csv' })
const jsonl = (text: string) => parseRatings(text, { format: 'jsonl', source: 'ratings.jsonl' })

describe('parseRatings: well-formed input', () => {
  it('reads CSV scores, numbers as numbers and other text as labels', () => {
    const r = csv('item,rater,dimension,score\nq1,ann,fluency,4\nq1,bob,fluency,4.5\nq2,ann,,good\n')
    expect(r.scores).toEqual([
      { item: 'q1', rater: 'ann', dimension: 'fluency', score: 4 },
      { item: 'q1', rater: 'bob', dimension: 'fluency', score: 4.5 },
      { item: 'q2', rater: 'ann', dimension: 'overall', score: 'good' },
    ])
    expect(r.comparisons).toEqual([])
  })

  it('reads CSV pairwise judgements (winner in any case)', () => {
    const r = csv('item,rater,a,b,winner\nq1,ann,gpt,llama,A\nq2,ann,gpt,llama,tie\n')
    expect(r.comparisons).toEqual([
      { item: 'q1', rater: 'ann', a: 'gpt', b: 'llama', winner: 'a' },
      { item: 'q2', rater: 'ann', a: 'gpt', b: 'llama', winner: 'tie' },
    ])
  })

  it('reads JSONL with both record kinds, numbers as ids, booleans as scores, CRLF and blank lines', () => {
    const text = [
      '{"item": 1, "rater": "ann", "score": true}',
      '',
      '{"item": "q2", "rater": 7, "dimension": "faithfulness", "score": 0.25, "note": "ignored"}',
      '{"item": "q3", "rater": "ann", "a": "x", "b": "y", "winner": "b"}',
    ].join('\r\n')
    const r = jsonl(text)
    expect(r.scores).toEqual([
      { item: '1', rater: 'ann', dimension: 'overall', score: true },
      { item: 'q2', rater: '7', dimension: 'faithfulness', score: 0.25 },
    ])
    expect(r.comparisons).toEqual([{ item: 'q3', rater: 'ann', a: 'x', b: 'y', winner: 'b' }])
  })

  it('skips a byte-order mark', () => {
    expect(csv('\uFEFFitem,rater,score\nq1,ann,1\n').scores).toHaveLength(1)
  })
})

describe('parseRatings: malformed files name the file, the line and the field', () => {
  const cases: Array<[string, () => unknown, number, string]> = [
    ['JSONL: not JSON', () => jsonl('{"item":"q1","rater":"a","score":1}\n\n{"item": "q2", "rater": }\n'), 3, '(record)'],
    ['JSONL: an array instead of an object', () => jsonl('[1, 2]\n'), 1, '(record)'],
    ['JSONL: missing rater', () => jsonl('{"item":"q1","rater":"a","score":1}\n{"item":"q2","score":1}\n'), 2, 'rater'],
    ['JSONL: empty item', () => jsonl('{"item":" ","rater":"a","score":1}\n'), 1, 'item'],
    ['JSONL: null score', () => jsonl('{"item":"q1","rater":"a","score":null}\n'), 1, 'score'],
    ['JSONL: neither score nor winner', () => jsonl('{"item":"q1","rater":"a"}\n'), 1, 'score'],
    ['JSONL: both score and winner', () => jsonl('{"item":"q1","rater":"a","score":1,"winner":"a","a":"x","b":"y"}\n'), 1, 'winner'],
    ['JSONL: unknown winner', () => jsonl('{"item":"q1","rater":"a","a":"x","b":"y","winner":"x"}\n'), 1, 'winner'],
    ['JSONL: missing system b', () => jsonl('{"item":"q1","rater":"a","a":"x","winner":"a"}\n'), 1, 'b'],
    ['JSONL: a system against itself', () => jsonl('{"item":"q1","rater":"a","a":"x","b":"x","winner":"a"}\n'), 1, 'b'],
    ['JSONL: non-string dimension', () => jsonl('{"item":"q1","rater":"a","dimension":3,"score":1}\n'), 1, 'dimension'],
    ['CSV: empty score cell', () => csv('item,rater,score\nq1,ann,3\nq2,bob,\n'), 3, 'score'],
    ['CSV: empty rater after a blank line', () => csv('item,rater,score\nq1,ann,3\n\nq2,,4\n'), 4, 'rater'],
    ['CSV: header without item', () => csv('id,rater,score\nq1,ann,3\n'), 1, 'item'],
    ['CSV: header with both score and winner', () => csv('item,rater,score,winner\nq1,ann,3,a\n'), 1, 'winner'],
    ['CSV: header with neither score nor winner', () => csv('item,rater,grade\nq1,ann,3\n'), 1, 'score'],
    ['CSV: pairwise header without b', () => csv('item,rater,a,winner\nq1,ann,x,a\n'), 1, 'b'],
    ['CSV: duplicate column', () => csv('item,rater,rater,score\nq1,ann,bob,3\n'), 1, 'rater'],
    // csv-parse names the column where it stopped: the missing cell, or where the quote opened
    ['CSV: a row with too few cells', () => csv('item,rater,score\nq1,ann,3\nq2,bob\n'), 3, 'score'],
    ['CSV: an unclosed quote', () => csv('item,rater,score\nq1,"ann,3\n'), 2, 'rater'],
    ['CSV (CRLF): bad score after blank lines and a quoted line break', () => csv('item,rater,score\r\nq1,ann,3\r\n\r\n"q\r\n2",bob,4\r\nq3,carl,\r\n'), 6, 'score'],
    ['CSV: bad winner on a record spanning two lines', () => csv('item,rater,a,b,winner\n"q\n1",ann,x,y,maybe\n'), 2, 'winner'],
  ]
  it.each(cases)('%s', (_name, run, line, field) => {
    const error = failure(run)
    expect(error.line).toBe(line)
    expect(error.field).toBe(field)
    expect(error.file).toMatch(/^ratings\.(csv|jsonl)$/)
    expect(error.message).toContain(`${error.file} line ${line}, field \`${field}\``)
    expect(error.argument).toBe(field)
  })

  it('refuses a format it does not know', () => {
    expect(() => parseRatings('x', { format: 'xlsx' as never })).toThrow(/options\.format/)
  })
})

describe('loadRatings', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rag-matchers-ratings-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('picks the format from the extension', async () => {
    const csvPath = join(dir, 'likert.csv')
    writeFileSync(csvPath, 'item,rater,score\nq1,ann,4\n')
    expect((await loadRatings(csvPath)).scores).toEqual([{ item: 'q1', rater: 'ann', dimension: 'overall', score: 4 }])
    const jsonlPath = join(dir, 'pairs.ndjson')
    writeFileSync(jsonlPath, '{"item":"q1","rater":"ann","a":"x","b":"y","winner":"tie"}\n')
    expect((await loadRatings(jsonlPath)).comparisons).toHaveLength(1)
  })

  it('names the path in errors, and needs a format for other extensions', async () => {
    const path = join(dir, 'bad.jsonl')
    writeFileSync(path, '{"item":"q1","rater":"ann","score":1}\n{"item":"q2","rater":"ann","score":[]}\n')
    await expect(loadRatings(path)).rejects.toThrow(`${path} line 2, field \`score\``)
    const txt = join(dir, 'ratings.txt')
    writeFileSync(txt, 'item,rater,score\nq1,ann,4\n')
    await expect(loadRatings(txt)).rejects.toThrow(/options\.format/)
    expect((await loadRatings(txt, { format: 'csv' })).scores).toHaveLength(1)
  })
})
