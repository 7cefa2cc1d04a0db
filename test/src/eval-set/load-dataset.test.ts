import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  checkCorpus,
  DatasetError,
  jsonSyntaxErrorOffset,
  keywordGroundTruth,
  loadCorpus,
  loadDataset,
  parseDataset,
  withKeywordGroundTruth,
} from '../../../src/eval-set/load-dataset.js'
import { MetricInputError } from '../../../src/errors.js'

/** The thrown DatasetError, so a test can check every part of the location. */
function errorOf(fn: () => unknown): DatasetError {
  try {
    fn()
  } catch (error) {
    if (error instanceof DatasetError) return error
    throw error
  }
  throw new Error('expected a DatasetError')
}

describe('parseDataset: valid input', () => {
  it('reads JSON, turning numeric ids into strings and keeping unknown fields', () => {
    const items = parseDataset(
      JSON.stringify([
        { id: 'a', question: 'Q1?', keyword: 'h = 8', reference: 'r', tags: ['x'] },
        { id: 2, question: 'Q2?', relevant: { c1: 2, c2: 0 }, references: ['r1', 'r2'], contexts: ['ctx'] },
      ]),
      { source: 'set.json' },
    )
    expect(items).toEqual([
      { id: 'a', question: 'Q1?', keyword: 'h = 8', reference: 'r', tags: ['x'] },
      { id: '2', question: 'Q2?', relevant: { c1: 2, c2: 0 }, references: ['r1', 'r2'], contexts: ['ctx'] },
    ])
  })

  it('reads JSON Lines, skipping blank lines, with CRLF', () => {
    const text = '{"id":"a","question":"Q1?"}\r\n\r\n{"id":"b","question":"Q2?","relevant":["c1",3]}\r\n'
    expect(parseDataset(text, { format: 'jsonl' })).toEqual([
      { id: 'a', question: 'Q1?' },
      { id: 'b', question: 'Q2?', relevant: ['c1', 3] },
    ])
  })

  it('reads CSV: empty cells are absent, lists as JSON arrays or |-separated, quoted multi-line fields, BOM', () => {
    const text = [
      '\ufeffid,question,keyword,relevant,references,contexts,reference',
      'q1,"What is BLEU, really?",,c1 | c4|,,,',
      'q2,"Line one',
      'line two",28.4,"[""c2"", 7]","[""has | a pipe"", ""second""]",ctx a|ctx b,',
      'q3,Graded?,,"{""c1"": 2, ""c9"": 1}",,,one reference',
    ].join('\n')
    expect(parseDataset(text, { source: 'set.csv' })).toEqual([
      { id: 'q1', question: 'What is BLEU, really?', relevant: ['c1', 'c4'] },
      { id: 'q2', question: 'Line one\nline two', keyword: '28.4', relevant: ['c2', 7], references: ['has | a pipe', 'second'], contexts: ['ctx a', 'ctx b'] },
      { id: 'q3', question: 'Graded?', relevant: { c1: 2, c9: 1 }, reference: 'one reference' },
    ])
  })

  it('loads the example eval set from disk, inferring the format from the extension', () => {
    const file = fileURLToPath(new URL('../../../examples/transformer-qa/data/eval-set.json', import.meta.url))
    const items = loadDataset(file)
    expect(items.length).toBeGreaterThan(5)
    expect(items[0]).toMatchObject({ id: 'heads', keyword: 'h = 8' })
  })
})

describe('parseDataset: malformed files name the file, the line and the field', () => {
  it('JSON: array index, line of the offending key, field', () => {
    const text = ['[', '  { "id": "a", "question": "Q1?" },', '  {', '    "id": "b",', '    "question": 3', '  }', ']'].join('\n')
    const e = errorOf(() => parseDataset(text, { source: 'set.json' }))
    expect(e).toBeInstanceOf(MetricInputError)
    expect([e.source, e.line, e.index, e.argument]).toEqual(['set.json', 5, 1, 'question'])
    expect(e.message).toBe('parseDataset: set.json line 5 (item [1]): Expected `question` to be a non-empty string, got `3` (number)')
  })

  it('JSON: a missing field points at the item, nested fields at their key', () => {
    const text = '[\n  {"id": "a", "question": "Q?"},\n  {"id": "b"}\n]'
    expect(errorOf(() => parseDataset(text, { source: 'x.json' })).message).toBe(
      'parseDataset: x.json line 3 (item [1]): Expected `question` to be a non-empty string, got `undefined`',
    )
    const nested = '[{"id": "a", "question": "Q?",\n "references": ["ok", 5]}]'
    const e = errorOf(() => parseDataset(nested, { source: 'x.json' }))
    expect([e.line, e.index, e.argument]).toEqual([2, 0, 'references[1]'])
  })

  it('JSON: syntax errors give the line, a non-array is refused, ids must be unique', () => {
    const bad = errorOf(() => parseDataset('[\n  {"id": "a",\n   "question": }\n]', { source: 'broken.json' }))
    expect(bad.line).toBe(3)
    expect(bad.message).toMatch(/^parseDataset: broken\.json line 3: not valid JSON: /)
    expect(errorOf(() => parseDataset('{"id": "a"}', { source: 'obj.json' })).message).toContain('obj.json line 1: Expected `file` to be a JSON array of items')
    const dup = errorOf(() => parseDataset('[\n{"id": "a", "question": "1"},\n{"id": "a", "question": "2"}\n]', { source: 'dup.json' }))
    expect(dup.message).toBe('parseDataset: dup.json line 3 (item [1]): Expected `id` to be unique (first used at line 2), got `"a"` (string)')
  })

  it('JSONL: the line of the bad item or of the bad JSON', () => {
    const text = '{"id":"a","question":"Q?"}\n\n{"id":"b","question":"Q?","relevant":"c1"}\n'
    expect(errorOf(() => parseDataset(text, { source: 'set.jsonl' })).message).toBe(
      'parseDataset: set.jsonl line 3: Expected `relevant` to be an array of ids or an object of id → grade, got `"c1"` (string)',
    )
    const syntax = errorOf(() => parseDataset('{"id":"a","question":"Q?"}\n{"id":"b",\n', { source: 'set.jsonl' }))
    expect([syntax.line, syntax.argument]).toEqual([2, 'line'])
    expect(syntax.message).toMatch(/^parseDataset: set\.jsonl line 2: not valid JSON/)
  })

  it('CSV: the line where the record starts, after multi-line records and blank lines', () => {
    const text = 'id,question,relevant\nq1,"multi\nline",c1\n\nq2,,c2\n'
    const e = errorOf(() => parseDataset(text, { source: 'set.csv' }))
    expect([e.line, e.argument]).toEqual([5, 'question'])
    expect(e.message).toBe('parseDataset: set.csv line 5: Expected `question` to be a non-empty string, got `undefined`')
    const crlf = errorOf(() => parseDataset('id,question\r\nq1,Q?\r\n\r\n,Q2?\r\n', { source: 'crlf.csv' }))
    expect([crlf.line, crlf.argument]).toEqual([4, 'id'])
  })

  it('CSV: bad list cells, missing header columns, ragged rows', () => {
    const badJson = errorOf(() => parseDataset('id,question,references\nq1,Q?,"[""unterminated]"\n', { source: 's.csv' }))
    expect([badJson.line, badJson.argument]).toEqual([2, 'references'])
    expect(badJson.message).toContain('a JSON array or a |-separated list')
    const header = errorOf(() => parseDataset('id,prompt\nq1,Q?\n', { source: 'h.csv' }))
    expect(header.message).toBe('parseDataset: h.csv line 1: Expected `header` to be a header row with an `question` column, got `["id","prompt"]` (array)')
    const ragged = errorOf(() => parseDataset('id,question\nq1,Q?\nq2,Q?,extra\n', { source: 'r.csv' }))
    expect(ragged.line).toBe(3)
    expect(ragged.message).toMatch(/^parseDataset: r\.csv line 3: not valid CSV: /)
  })

  it('loadDataset names the file path, and refuses unknown extensions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-dataset-'))
    try {
      const file = join(dir, 'broken.jsonl')
      writeFileSync(file, '{"id":"a","question":"Q?"}\n{"id":"a","question":"again"}\n')
      expect(() => loadDataset(file)).toThrow(`parseDataset: ${file} line 2: Expected \`id\` to be unique (first used at line 1)`)
      writeFileSync(join(dir, 'set.txt'), '{"id":"a","question":"Q?"}\n')
      expect(() => loadDataset(join(dir, 'set.txt'))).toThrow(
        "loadDataset: Expected `options.format` to be 'json', 'jsonl' or 'csv' (it cannot be inferred from the file name)",
      )
      expect(loadDataset(join(dir, 'set.txt'), { format: 'jsonl' })).toEqual([{ id: 'a', question: 'Q?' }])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('jsonSyntaxErrorOffset', () => {
  it('accepts what JSON.parse accepts and points at the first offending character otherwise', () => {
    for (const ok of ['[]', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ', '"s"', '0']) {
      expect(() => JSON.parse(ok)).not.toThrow()
      expect(jsonSyntaxErrorOffset(ok)).toBeUndefined()
    }
    const bad: Array<[string, number]> = [
      ['[1,]', 3],
      ['{"a" 1}', 5],
      ['[01]', 2],
      ['["\\x"]', 3],
      ['[1] 2', 4],
      ['{"a": }', 6],
      ['[', 1],
      ['["tab\there"]', 5],
    ]
    for (const [text, offset] of bad) {
      expect(() => JSON.parse(text)).toThrow()
      expect([text, jsonSyntaxErrorOffset(text)]).toEqual([text, offset])
    }
  })
})

describe('withKeywordGroundTruth', () => {
  const chunks = [
    { id: 'c1', text: 'The base model uses h = 8 heads.' },
    { id: 'c2', text: 'BLEU 28.4 on WMT 2014.' },
    { id: 'c3', text: 'Big model: BLEU 28.4.' },
  ]
  it('fills `relevant` from the keyword, keeps given ground truth, leaves items without a keyword alone', () => {
    const out = withKeywordGroundTruth(
      [
        { id: 'a', question: 'heads?', keyword: 'H = 8' },
        { id: 'b', question: 'bleu?', keyword: '28.4' },
        { id: 'c', question: 'given', keyword: '28.4', relevant: ['c9'] },
        { id: 'd', question: 'none' },
        { id: 'e', question: 'absent', keyword: 'xyz' },
      ],
      chunks,
    )
    expect(out.map((i) => i.relevant)).toEqual([['c1'], ['c2', 'c3'], ['c9'], undefined, []])
  })
})

describe('corpus for keyword ground truth', () => {
  const chunks = [
    { id: 'c1', text: 'Data at rest is encrypted with AES-256.' },
    { id: 2, text: 'TLS 1.3 everywhere.' },
  ]

  it('keywordGroundTruth fills relevant like withKeywordGroundTruth, and lists every keyword found in no chunk', () => {
    expect(keywordGroundTruth('runEvalSet', [{ id: 'a', keyword: 'aes-256' }, { id: 'b', keyword: 'tls', relevant: ['x'] }, { id: 'c' }], chunks)).toEqual([
      { id: 'a', keyword: 'aes-256', relevant: ['c1'] },
      { id: 'b', keyword: 'tls', relevant: ['x'] },
      { id: 'c' },
    ])
    const error = (() => {
      try {
        keywordGroundTruth('runEvalSet', [{ id: 'q07', keyword: 'AES 256' }, { keyword: 'TLS 1.2' }, { id: 'ok', keyword: 'tls 1.3' }], chunks)
      } catch (e) {
        return e as Error
      }
      throw new Error('expected an error')
    })()
    expect(error).toBeInstanceOf(MetricInputError)
    expect(error.message).toBe(
      'runEvalSet: 2 of 3 items have a keyword found in no chunk of the corpus (2 chunks; case-insensitive substring), so they would have no relevant chunk and score 0 on every retrieval metric: item "q07": keyword "AES 256"; dataset[1]: keyword "TLS 1.2". Spell the keyword as the corpus does, or give the item `relevant`',
    )
  })

  it('checkCorpus refuses a non-array, a chunk without a string text, an empty or duplicate id', () => {
    expect(() => checkCorpus('f', 'nope')).toThrow('f: Expected `corpus` to be an array of chunks')
    expect(() => checkCorpus('f', [{ id: 'a' }])).toThrow('Expected `corpus[0].text` to be a string')
    expect(() => checkCorpus('f', [{ id: '', text: '' }])).toThrow('Expected `corpus[0].id` to be a non-empty string or a number')
    expect(() => checkCorpus('f', [chunks[0], chunks[0]])).toThrow('Expected `corpus[1].id` to be unique within the corpus')
  })

  it('loadCorpus reads a JSON array or JSON Lines and names the file, line and field of a bad chunk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-corpus-'))
    try {
      writeFileSync(join(dir, 'ok.json'), JSON.stringify(chunks, null, 2))
      expect(loadCorpus(join(dir, 'ok.json'))).toEqual(chunks)
      writeFileSync(join(dir, 'bad.json'), '[\n  { "id": "c1", "text": "x" },\n  { "id": "c2", "text": 3 }\n]\n')
      expect(() => loadCorpus(join(dir, 'bad.json'))).toThrow(/bad\.json line 3 \(item \[1\]\): Expected `chunks\[1\]\.text` to be a string, got `3` \(number\)/)
      writeFileSync(join(dir, 'broken.jsonl'), '{"id": "c1", "text": "x"}\n{"id": "c2",\n')
      expect(() => loadCorpus(join(dir, 'broken.jsonl'))).toThrow(/broken\.jsonl line 2: not valid JSON/)
      expect(() => loadCorpus(join(dir, 'chunks.csv'))).toThrow('a .json, .jsonl or .ndjson file')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
