import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MetricInputError } from '../../../../src/errors.js'
import { atof, atofBytes, encodeUtf8 } from '../../../../src/retrieval/trec/bytes.js'
import { parseQrels, parseQrelsStream, parseRun, parseRunStream, TrecFormatError, type TrecRun } from '../../../../src/retrieval/trec/index.js'

const RUN = '301 Q0 D1 1 2.5 bm25\n301 Q0 D2 2 1.5 bm25\n302 Q0 D9 1 0.5 bm25\n'

function snapshot(run: TrecRun) {
  return {
    runId: run.runId,
    topics: run.topicIds.map((qid) => ({ qid, docnos: run.docnos(qid), scores: [...run.topicScores(qid)] })),
  }
}

function formatError(fn: () => unknown): TrecFormatError {
  try {
    fn()
  } catch (error) {
    if (error instanceof TrecFormatError) return error
    throw error
  }
  throw new Error('expected a TrecFormatError')
}

describe('parseRun (trec_eval 10.0 get_trec_results rules)', () => {
  it('reads qid, docno and sim; iter and rank are ignored; run_id is the last line’s', () => {
    const run = parseRun('301 Q0 D1 7 2.5 first\n301 XX D2 1 1.5 second\n302 Q0 D9 3 0.5 last\n')
    expect(snapshot(run)).toEqual({
      runId: 'last',
      topics: [
        { qid: '301', docnos: ['D1', 'D2'], scores: [2.5, 1.5] },
        { qid: '302', docnos: ['D9'], scores: [0.5] },
      ],
    })
    expect(run.size).toBe(3)
  })

  it('groups a topic whose lines are not contiguous, keeping file order inside it', () => {
    const run = parseRun('1 Q0 a 1 3 r\n2 Q0 x 1 9 r\n1 Q0 b 2 2 r\n2 Q0 y 2 8 r\n1 Q0 c 3 1 r\n')
    expect(snapshot(run).topics).toEqual([
      { qid: '1', docnos: ['a', 'b', 'c'], scores: [3, 2, 1] },
      { qid: '2', docnos: ['x', 'y'], scores: [9, 8] },
    ])
  })

  it('ignores fields after run_id (results.trunc in trec_eval’s tests has such junk)', () => {
    const run = parseRun('301\tQ0\tFBIS3-27619\t99\t  2.138276\tSTANDARD more junk at\n')
    expect(snapshot(run)).toEqual({ runId: 'STANDARD', topics: [{ qid: '301', docnos: ['FBIS3-27619'], scores: [2.138276] }] })
  })

  it('skips # comments and blank lines; accepts CRLF, a BOM, leading blanks and no final newline', () => {
    const plain = snapshot(parseRun(RUN))
    expect(snapshot(parseRun(`# a comment\n\n   \n${RUN}\n\n`))).toEqual(plain)
    expect(snapshot(parseRun(RUN.replace(/\n/g, '\r\n')))).toEqual(plain)
    expect(snapshot(parseRun(`\uFEFF${RUN}`))).toEqual(plain)
    expect(snapshot(parseRun(RUN.slice(0, -1)))).toEqual(plain)
    expect(snapshot(parseRun(RUN.replace(/^/gm, ' \t')))).toEqual(plain)
    // a docno may contain '#'; only a line that starts with it is a comment
    expect(parseRun('1 Q0 CR#93 1 1 r\n').docnos('1')).toEqual(['CR#93'])
  })

  it('throws on a line with fewer than six fields, naming the source and the physical line', () => {
    const error = formatError(() => parseRun('# header\n301 Q0 D1 1 2.5 r\n\n301 Q0 D2 2 1.5\n', { source: 'bm25.run' }))
    expect(error).toBeInstanceOf(MetricInputError)
    expect(error.source).toBe('bm25.run')
    expect(error.line).toBe(4)
    expect(error.text).toBe('301 Q0 D2 2 1.5')
    expect(error.message).toBe(
      'parseRun: Expected `bm25.run line 4` to be a run line `qid iter docno rank sim run_id` (whitespace-separated, extra fields ignored), got `"301 Q0 D2 2 1.5"` (string)',
    )
    for (const bad of ['301', '301 Q0', '301 Q0 D1', '301 Q0 D1 1', '301 Q0 D1 1 2.5', '301 Q0 D1 1 2.5 \r']) {
      expect(formatError(() => parseRun(`${bad}\n`)).line).toBe(1)
    }
  })

  it('reads sim with C atof: exponents, signs, hex, inf, and 0 for text', () => {
    const sims = ['1e2', '-2.5', '+.5', '0x10', '1.5abc', 'abc', '-0', '0.1000000000000000055511151231257827', 'inf', '12345678901234567']
    const run = parseRun(sims.map((s, i) => `q Q0 d${i} 1 ${s} r\n`).join(''))
    const scores = [...run.topicScores('q')]
    expect(scores.slice(0, 6)).toEqual([100, -2.5, 0.5, 16, 1.5, 0])
    expect(Object.is(scores[6], -0)).toBe(true)
    expect(scores[7]).toBe(0.1)
    expect(scores[8]).toBe(Infinity)
    expect(scores[9]).toBe(12345678901234567)
  })

  it('converts plain decimals exactly (the fast path agrees with the general parser)', () => {
    for (const s of ['0.1', '2.138276', '19.405900', '-0.000001', '123456789012345', '0.30000000000000004', '7.1e-3']) {
      const bytes = encodeUtf8(s)
      expect(atofBytes(bytes, 0, bytes.length)).toBe(Number(s))
      expect(atof(s)).toBe(Number(s))
    }
  })

  it('keeps docnos as bytes and returns them as UTF-8 strings', () => {
    const run = parseRun('q Q0 café 1 1 r\nq Q0 😀 2 1 r\n')
    expect(run.docnos('q')).toEqual(['café', '😀'])
    expect(run.docnos('nope')).toEqual([])
    expect(run.topicIndex('q')).toBe(0)
  })

  it('rejects a non-string text', () => {
    expect(() => parseRun(42 as unknown as string)).toThrow(MetricInputError)
    expect(() => parseRun(42 as unknown as string)).toThrow('parseRun: Expected `text` to be a string, got `42` (number)')
  })
})

describe('parseQrels (trec_eval 10.0 get_qrels rules)', () => {
  it('reads qid, docno and rel = atol(rel); iter is ignored', () => {
    const qrels = parseQrels('301 0 D1 1\n301 7 D2 0\n302 0 D3 2.9\n302 0 D4 -1\n')
    expect(qrels.topicIds).toEqual(['301', '302'])
    expect(qrels.topics.get('301')).toEqual({ docnos: ['D1', 'D2'], rels: [1, 0] })
    expect(qrels.topics.get('302')).toEqual({ docnos: ['D3', 'D4'], rels: [2, -1] })
    expect(qrels.size).toBe(4)
  })

  it('skips comments and blank lines; accepts CRLF, a BOM and trailing blanks', () => {
    const text = '301 0 D1 1\n301 0 D2 0\n'
    const plain = parseQrels(text)
    for (const variant of [`# c\n${text}\n\n`, text.replace(/\n/g, '\r\n'), `\uFEFF${text}`, text.replace(/\n/g, ' \t\n'), text.trimEnd()]) {
      expect(parseQrels(variant).topics).toEqual(plain.topics)
    }
  })

  it('needs exactly four fields (trailing junk is malformed, unlike run lines)', () => {
    const tooMany = formatError(() => parseQrels('301 0 D1 1\n301 0 D2 0 extra\n', { source: 'q.txt' }))
    expect([tooMany.source, tooMany.line, tooMany.text]).toEqual(['q.txt', 2, '301 0 D2 0 extra'])
    expect(tooMany.message).toContain('qrels line `qid iter docno rel`')
    expect(formatError(() => parseQrels('301 0 D1\n')).line).toBe(1)
  })
})

describe('streaming readers', () => {
  const lines = Array.from({ length: 500 }, (_, i) => `${100 + (i % 7)} Q0 dé${i}😀 ${i} ${(i * 0.37) % 5} run-${i % 3}`)
  const text = `\uFEFF# comment\r\n${lines.join('\r\n')}\r\n`
  const bytes = encodeUtf8(text)
  const expected = snapshot(parseRun(text))

  it('give the same run from byte chunks cut anywhere (inside the BOM, CRLF, multi-byte characters)', async () => {
    for (const size of [1, 2, 3, 5, 7, 64, 4096]) {
      const chunks: Uint8Array[] = []
      for (let p = 0; p < bytes.length; p += size) chunks.push(bytes.slice(p, p + size))
      expect(snapshot(await parseRunStream(chunks))).toEqual(expected)
    }
  })

  it('give the same run from an async iterable of lines', async () => {
    async function* gen() {
      yield '# comment'
      for (const line of lines) yield line
    }
    expect(snapshot(await parseRunStream(gen()))).toEqual(expected)
  })

  it('read files by path, with the path as the default source', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-trec-'))
    try {
      writeFileSync(join(dir, 'run.txt'), text)
      writeFileSync(join(dir, 'qrels.txt'), '100 0 dé0😀 1\n101 0 x 0\n')
      writeFileSync(join(dir, 'bad.txt'), `${lines.slice(0, 300).join('\n')}\n1 Q0 d\n`)
      expect(snapshot(await parseRunStream(join(dir, 'run.txt')))).toEqual(expected)
      const qrels = await parseQrelsStream(join(dir, 'qrels.txt'))
      expect(qrels.topics.get('100')).toEqual({ docnos: ['dé0😀'], rels: [1] })
      await expect(parseRunStream(join(dir, 'bad.txt'))).rejects.toMatchObject({ source: join(dir, 'bad.txt'), line: 301 })
      await expect(parseRunStream(join(dir, 'missing.txt'))).rejects.toMatchObject({ code: 'ENOENT' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('count lines across chunk boundaries in error messages', async () => {
    const bad = encodeUtf8(`${lines.slice(0, 123).join('\n')}\n1 Q0 d 1 2\n`)
    const chunks: Uint8Array[] = []
    for (let p = 0; p < bad.length; p += 97) chunks.push(bad.slice(p, p + 97))
    await expect(parseRunStream(chunks, { source: 'chunks' })).rejects.toMatchObject({ line: 124, source: 'chunks', text: '1 Q0 d 1 2' })
  })

  it('reject what is neither a path nor an iterable of strings or bytes', async () => {
    await expect(parseRunStream(42 as never)).rejects.toThrow(MetricInputError)
    await expect(parseQrelsStream([{}] as never)).rejects.toThrow('parseQrelsStream: Expected `input`')
  })
})
