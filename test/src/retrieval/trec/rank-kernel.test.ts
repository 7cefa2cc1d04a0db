// The WebAssembly ranking (RunKernel.order/index, used when a batch's columns live in the kernel's memory) against
// the JS Ranker: on random runs with long stretches of tied scores, topics out of score order, docnos retrieved
// twice, -M, -J and -c, evaluateTrecFile with the kernel's columns gives evaluateTrec's table or error exactly,
// also when batches outgrow the kernel's columns and move to JS arrays.
import fc from 'fast-check'
import { afterAll } from 'vitest'
import { evaluateTrecFile } from '../../../../src/retrieval/trec/evaluate-file.js'
import { evaluateTrec, parseQrels, parseRun, type TrecEvalOptions } from '../../../../src/retrieval/trec/index.js'
import { kernelOf, RunBuilder } from '../../../../src/retrieval/trec/run.js'
import { RunKernel } from '../../../../src/retrieval/trec/run-kernel.js'
import { tempFiles } from '../../../cli/temp-files.js'

const files = tempFiles('rag-trec-rank-')
afterAll(() => files.cleanup())

const MEASURES = ['official', 'relstring', 'ndcg_cut.3', 'P.5', 'num_ret', 'num_rel_ret']

async function outcome(f: () => unknown): Promise<unknown> {
  try {
    return { table: await f() }
  } catch (error) {
    const e = error as Error & { code?: string; topic?: string; docno?: string }
    return { error: [e.constructor.name, e.message, e.code, e.topic, e.docno] }
  }
}

// few distinct scores, so ties run long (the kernel orders up to 16 and hands longer stretches back)
const doc = fc.record({
  docno: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 400 }).map((i) => `d${i}`) }, { weight: 1, arbitrary: fc.constantFrom('é', 'D', 'd', 'd1x') }),
  score: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(3, 2.5, 1, 0) }, { weight: 1, arbitrary: fc.double({ min: -5, max: 5, noNaN: true }) }),
})
const topic = fc.record({
  docs: fc.array(doc, { minLength: 1, maxLength: 60 }),
  // ranked: sorted by score descending as a ranked file is; otherwise as generated
  ranked: fc.boolean(),
  judged: fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 12 }),
})

describe('ranking in the WebAssembly kernel', () => {
  it('compiles here, so the comparison below is with the kernel', () => {
    expect(RunKernel.create()).not.toBeNull()
  })

  it('gives the JS ranker’s table or error on random runs, in batches that fit the kernel’s columns or outgrow them', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(topic, { minLength: 1, maxLength: 6 }),
        fc.record({ maxRetrieved: fc.option(fc.constantFrom(1, 3, 20), { nil: undefined }), judgedOnly: fc.boolean(), completeTopics: fc.boolean() }),
        fc.integer({ min: 1, max: 80 }),
        fc.constantFrom(8, 64, 1 << 20),
        async (topics, opts, batchDocs, residentRows) => {
          const lines: string[] = []
          const qrels: string[] = []
          topics.forEach((t, q) => {
            const docs = t.ranked ? [...t.docs].sort((a, b) => b.score - a.score) : t.docs
            docs.forEach((d, i) => lines.push(`${q + 1} Q0 ${d.docno} ${i + 1} ${d.score} r\n`))
            for (const j of t.judged) qrels.push(`${q + 1} 0 ${(t.docs[j] ?? { docno: `never${j}` }).docno} ${j % 3}`)
          })
          // a judged topic without results: trec_eval's bogus ranking with -c, an error without
          if (opts.completeTopics) qrels.push('99 0 unretrieved 1')
          const options: TrecEvalOptions = {
            judgedOnly: opts.judgedOnly,
            completeTopics: opts.completeTopics,
            ...(opts.maxRetrieved === undefined ? {} : { maxRetrieved: opts.maxRetrieved }),
          }
          const text = lines.join('')
          const path = files.write(`run-${n++}.txt`, text)
          // one docno judged twice is its own error; keep the qrels valid so that the run decides
          const judged = parseQrels([...new Set(qrels.map((l) => l.split(' ').slice(0, 3).join(' ')))].map((l) => `${l} 1`).join('\n'))
          const expected = await outcome(() => evaluateTrec(judged, parseRun(text, { source: path }), MEASURES, options, 'f'))
          const actual = await outcome(() => evaluateTrecFile(judged, path, MEASURES, options, { fn: 'f', batchDocs, mode: 'wasm', residentRows }))
          expect(actual).toEqual(expected)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('names the smallest docno a topic retrieves twice, whichever repeat comes first', async () => {
    const qrels = parseQrels('1 0 y 1\n')
    const path = files.write('dups.txt', '1 Q0 z 1 5 r\n1 Q0 y 2 4 r\n1 Q0 z 3 3 r\n1 Q0 y 4 2 r\n1 Q0 x 5 1 r\n')
    const error = (await outcome(() => evaluateTrecFile(qrels, path, ['map'], {}, { mode: 'wasm' }))) as { error: unknown[] }
    expect(error.error.slice(2)).toEqual(['duplicate-docno', '1', 'y'])
  })

  it('moves a batch whose docno bytes outgrow the kernel’s arena (16 MB) to JS arrays, rows still fitting', async () => {
    // one topic of 170,000 documents with 100-byte docnos (17 MB): the arena fills up long before the 2^20 rows do
    const pad = 'x'.repeat(92)
    const lines: string[] = []
    for (let i = 0; i < 170_000; i += 1) lines.push(`1 Q0 ${pad}${String(i).padStart(8, '0')} ${i} ${170_000 - (i >> 2)} r\n`)
    lines.push(`2 Q0 ${pad}00000007 1 1 r\n`)
    const text = lines.join('')
    const path = files.write('long-docnos.txt', text)
    const qrels = parseQrels(`1 0 ${pad}00000003 1\n1 0 ${pad}00169999 2\n2 0 ${pad}00000007 1\n`)
    const expected = evaluateTrec(qrels, parseRun(text), MEASURES, {}, 'f')
    expect(await evaluateTrecFile(qrels, path, MEASURES, {}, { fn: 'f' })).toEqual(expected)
  })

  it('moves rows read before the kernel existed into its columns', () => {
    const topicLines = (q: number, docs: number) => Array.from({ length: docs }, (_, i) => `${q} Q0 d${(i * 7) % docs} ${i} ${docs - (i >> 1)} r\n`).join('')
    const small = topicLines(1, 30)
    const large = Array.from({ length: 400 }, (_, q) => topicLines(q + 2, 50)).join('')
    const qrels = parseQrels('1 0 d3 1\n2 0 d4 1\n300 0 d5 2\n')
    const builder = new RunBuilder('f', 'run', 0, 'auto', 1 << 20)
    builder.push(new TextEncoder().encode(small)) // under the kernel's minimum block: read by JS
    builder.push(new TextEncoder().encode(large)) // creates the kernel, which takes the rows read so far
    const run = builder.finishBatches()
    expect(kernelOf(run)).not.toBeNull()
    expect(evaluateTrec(qrels, run, MEASURES, {}, 'f')).toEqual(evaluateTrec(qrels, parseRun(small + large), MEASURES, {}, 'f'))
  })
})
