// The WebAssembly run reader against the JS one: every column, the run id, the topic order and every error must be
// the same, on random runs built to hit each place where the kernel hands a line back (tabs, CR, repeated spaces,
// long lines and qids, scores it does not read, comments, blank and short lines, new qids, window boundaries).
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { afterAll } from 'vitest'
import { assembleKernel, kernelSource, KERNELS } from '../../../../scripts/wasm-source.mjs'
import { RunBuilder, type RunReaderMode, type TrecRun } from '../../../../src/retrieval/trec/run.js'
import { KERNEL_WINDOW, RunKernel } from '../../../../src/retrieval/trec/run-kernel.js'
import { evaluateTrec } from '../../../../src/retrieval/trec/evaluate.js'
import { evaluateTrecFile } from '../../../../src/retrieval/trec/evaluate-file.js'
import { parseQrels } from '../../../../src/retrieval/trec/qrels.js'
import { parseRunStream } from '../../../../src/retrieval/trec/stream.js'
import { tempFiles } from '../../../cli/temp-files.js'

const here = new URL('../../../../src/retrieval/trec/', import.meta.url)
const files = tempFiles('rag-run-kernel-')
afterAll(() => files.cleanup())

function read(text: string | Uint8Array, mode: RunReaderMode, chunks: readonly number[] = []): TrecRun | string {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text
  const builder = new RunBuilder('parseRun', 'run', bytes.length, mode)
  try {
    let at = 0
    for (const size of chunks) {
      if (at >= bytes.length) break
      builder.push(bytes.subarray(at, Math.min(bytes.length, at + size)))
      at += size
    }
    if (at < bytes.length) builder.push(bytes.subarray(at))
    return builder.finish()
  } catch (error) {
    return `error: ${(error as Error).message}`
  }
}

/** Everything a run holds, as plain data (scores as their exact bits, so -0 and 0 differ). */
function snapshot(run: TrecRun | string) {
  if (typeof run === 'string') return run
  return {
    runId: run.runId,
    topicIds: run.topicIds,
    scores: Array.from(run.scores, (s) => (Object.is(s, -0) ? '-0' : String(s))),
    docStart: Array.from(run.docStart),
    arena: Buffer.from(run.arena).toString('hex'),
    hashes: Array.from(run.hashes),
    topicOffset: Array.from(run.topicOffset),
    order: run.order === null ? null : Array.from(run.order),
  }
}

const sep = fc.constantFrom(' ', ' ', ' ', ' ', '  ', '\t', ' \t', '\v', '\f')
const field = fc.stringMatching(/^[A-Za-z0-9_.#:-]{1,12}$/)
const qid = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('301', '302', '1', 'q-7') },
  { weight: 1, arbitrary: fc.constantFrom('topic-with-a-long-name-0017', 'é9', 'x'.repeat(20)) },
)
const docno = fc.oneof({ weight: 6, arbitrary: field }, { weight: 1, arbitrary: fc.constantFrom('clueweb12-0000tw-00-00017-and-more', 'dé-1', '\u{1F600}', 'd'.repeat(40)) })
// digit strings around the kernel's limits: up to 8 digits on each side of the '.', 15 in all
const digits = (max: number) => fc.array(fc.constantFrom(...'0123456789'), { maxLength: max }).map((d) => d.join(''))
const decimal = fc
  .tuple(fc.constantFrom('', '', '-', '+'), digits(10), fc.boolean(), digits(10))
  .map(([sign, int, dot, frac]) => `${sign}${int}${dot ? '.' : ''}${dot ? frac : ''}`)
const score = fc.oneof(
  { weight: 4, arbitrary: decimal },
  { weight: 8, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => String(Math.round(x * 1000) / 1000)) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '21.701',
      '-3',
      '+0.5',
      '.5',
      '5.',
      '-0',
      '0',
      '1e3',
      '2.5E-2',
      '0x1p3',
      'inf',
      '-nan',
      '1234567890123456',
      '123456789012345',
      '0.000000000000001',
      '1.2.3',
      '12abc',
      '-',
      '.',
      '3.',
      '007',
    ),
  },
)
const runId = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('bm25', 'run-a') }, { weight: 1, arbitrary: fc.constantFrom('a-very-long-run-identifier-of-many-bytes', 'ü') })
const lineEnd = fc.constantFrom('\n', '\n', '\n', '\n', '\r\n', ' \n', ' extra fields\n', '\t\n')
// Most lines in the layout the kernel's SIMD path takes (single spaces, \n), the rest with random separators.
const plainLine = fc.tuple(qid, field, docno, field, score, runId).map(([q, iter, d, rank, sc, r]) => `${q} ${iter} ${d} ${rank} ${sc} ${r}\n`)
const oddLine = fc
  .tuple(qid, sep, field, sep, docno, sep, field, sep, score, sep, runId, lineEnd, fc.constantFrom('', '', '', '  ', '\t'))
  .map(([q, s1, iter, s2, d, s3, rank, s4, sc, s5, r, end, lead]) => `${lead}${q}${s1}${iter}${s2}${d}${s3}${rank}${s4}${sc}${s5}${r}${end}`)
const runLine = fc.oneof({ weight: 3, arbitrary: plainLine }, { weight: 1, arbitrary: oddLine })
const otherLine = fc.constantFrom('\n', '# a comment line\n', '   \n', '301 Q0 d1 1 2.5\n', '301 Q0\n', '301\n', '\r\n')
const line = fc.oneof({ weight: 12, arbitrary: runLine }, { weight: 1, arbitrary: otherLine })
const runText = fc.tuple(fc.array(line, { maxLength: 60 }), fc.boolean()).map(([lines, finalNewline]) => {
  const text = lines.join('')
  return finalNewline ? text : text.replace(/\n$/, '')
})

describe('run kernel (WebAssembly)', () => {
  it('compiles in this runtime, so the tests below compare it and not the JS path with itself', () => {
    expect(RunKernel.create()).not.toBeNull()
  })

  it('run-kernel-wasm.ts is what run-kernel.wat assembles to', async () => {
    const wat = readFileSync(new URL('run-kernel.wat', here), 'utf8')
    const expected = kernelSource(KERNELS[0], await assembleKernel(wat))
    expect(readFileSync(new URL('run-kernel-wasm.ts', here), 'utf8')).toBe(expected)
  })

  it('reads random runs exactly as the JS reader does, whole and in random chunks', () => {
    fc.assert(
      fc.property(runText, fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 8 }), (text, chunks) => {
        const js = snapshot(read(text, 'js'))
        expect(snapshot(read(text, 'wasm'))).toEqual(js)
        expect(snapshot(read(text, 'wasm', chunks))).toEqual(js)
      }),
      { numRuns: 1500 },
    )
  }, 120_000) // 1,500 random runs: about 20 s alone, over vitest's 30 s default when the machine is busy

  it('reads the common layout on the kernel path and every other line on the JS path, mixed line by line', () => {
    const text = [
      '301 Q0 d1 1 21.701 bm25\n',
      '301 Q0 d2 2 21.690 bm25\n',
      '301\tQ0 d3 3 21.5 bm25\n', // tab: JS path
      '301 Q0 d4 4 2.1e1 bm25\n', // exponent: JS path
      '302 Q0 d1 1 -0.5 bm25\r\n', // new qid, CRLF
      '# comment\n',
      '302 Q0 d9 2 -0.75 last\n',
    ].join('')
    const js = read(text, 'js') as TrecRun
    expect(snapshot(read(text, 'wasm'))).toEqual(snapshot(js))
    expect(js.topicIds).toEqual(['301', '302'])
    expect(Array.from(js.scores)).toEqual([21.701, 21.69, 21.5, 21, -0.5, -0.75])
    expect(js.docnos('301')).toEqual(['d1', 'd2', 'd3', 'd4'])
    expect(js.runId).toBe('last')
  })

  it('names the same line when a line has too few fields', () => {
    const text = '301 Q0 d1 1 2 r\n301 Q0 d2 2 1 r\n\n301 Q0 d3 3 0.5\n'
    const wasm = read(text, 'wasm')
    expect(wasm).toBe(read(text, 'js'))
    expect(wasm).toMatch(/line 4/)
  })

  it('crosses window boundaries and lines longer than a window', () => {
    const lines: string[] = []
    let size = 0
    for (let i = 0; size < KERNEL_WINDOW * 2.5; i += 1) {
      const l = `${100 + Math.floor(i / 1000)} Q0 doc-${(i * 7919) % 100000} ${i % 1000} ${(1000 - (i % 1000)) / 8} run-${i % 3}\n`
      lines.push(l)
      size += l.length
      if (i === 30000) {
        const long = `${100 + Math.floor(i / 1000)} Q0 ${'x'.repeat(KERNEL_WINDOW + 10)} 1 1 long\n`
        lines.push(long)
        size += long.length
      }
    }
    const bytes = new TextEncoder().encode(lines.join(''))
    const js = snapshot(read(bytes, 'js', [1 << 20, 1 << 20, 3 << 20]))
    expect(snapshot(read(bytes, 'wasm', [1 << 20, 1 << 20, 3 << 20]))).toEqual(js)
    expect(snapshot(read(bytes, 'auto'))).toEqual(js)
  })

  /** ~3 MB: 3,000 topics, a line off the kernel's layout every 97 lines, a comment every 1,000. */
  function bigRun(): string {
    const lines: string[] = []
    for (let i = 0; i < 60000; i += 1) {
      const topic = 100 + Math.floor(i / 20)
      const sep = i % 97 === 0 ? '\t' : ' '
      lines.push(`${topic} Q0 doc-${(i * 7919) % 50000}${sep}${i % 20} ${((20 - (i % 20)) * 1.25).toFixed(3)} bm25\n`)
      if (i % 1000 === 999) lines.push('# checkpoint\n')
    }
    return lines.join('')
  }

  it('reads bytes in place from the buffers it lends the file reader', () => {
    const bytes = new TextEncoder().encode(bigRun())
    const builder = new RunBuilder('parseRunStream', 'run', bytes.length, 'auto')
    const lent = builder.readBuffers(1 << 20, bytes.length)
    expect(lent).toBeDefined()
    const [a, b] = lent as readonly [Uint8Array, Uint8Array]
    // what pump does: read a chunk into one of the lent buffers, push it, alternate
    let buffer = a
    for (let at = 0; at < bytes.length; at += 1 << 20) {
      const chunk = bytes.subarray(at, Math.min(bytes.length, at + (1 << 20)))
      buffer.set(chunk)
      builder.push(buffer.subarray(0, chunk.length))
      buffer = buffer === a ? b : a
    }
    expect(snapshot(builder.finish())).toEqual(snapshot(read(bytes, 'js')))
    // a small file gets no kernel
    expect(new RunBuilder('parseRunStream', 'run', 100, 'auto').readBuffers(1 << 20, 100)).toBeUndefined()
  })

  it('reads a run file through parseRunStream and evaluateTrecFile as the JS reader reads it', async () => {
    const text = bigRun()
    const path = files.write('run.txt', text)
    const js = read(text, 'js') as TrecRun
    expect(snapshot(await parseRunStream(path))).toEqual(snapshot(js))
    const qrels = parseQrels(Array.from({ length: 3000 }, (_, t) => `${100 + t} 0 doc-${(t * 20 * 7919) % 50000} 1\n`).join(''))
    const measures = ['map', 'P.10', 'ndcg_cut.10', 'num_ret']
    expect(await evaluateTrecFile(qrels, path, measures)).toEqual(evaluateTrec(qrels, js, measures))
  })
})
