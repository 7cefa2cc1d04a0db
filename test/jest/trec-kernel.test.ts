// The run reader's WebAssembly kernel inside Jest's vm context (its own globals and realm): it must compile there,
// read a run exactly as the JS path does, and rank a batch held in its memory as the JS ranker does.
import { evaluateTrec } from '../../src/retrieval/trec/evaluate.js'
import { parseQrels } from '../../src/retrieval/trec/qrels.js'
import { kernelOf, parseRun, RunBuilder, type RunReaderMode } from '../../src/retrieval/trec/run.js'
import { RunKernel } from '../../src/retrieval/trec/run-kernel.js'

function read(bytes: Uint8Array, mode: RunReaderMode) {
  const builder = new RunBuilder('parseRun', 'run', bytes.length, mode)
  builder.push(bytes)
  const run = builder.finish()
  return { runId: run.runId, topicIds: run.topicIds, scores: Array.from(run.scores), docStart: Array.from(run.docStart), hashes: Array.from(run.hashes) }
}

describe('trec run kernel under Jest', () => {
  it('compiles and reads a 100 kB run as the JS reader does', () => {
    expect(RunKernel.create()).not.toBeNull()
    const lines: string[] = []
    for (let i = 0; i < 3000; i += 1) lines.push(`${1 + Math.floor(i / 100)} Q0 d${i % 977}${i % 41 === 0 ? '\t' : ' '}${i % 100} ${(100 - (i % 100)) / 4} r${i % 2}\n`)
    const bytes = new TextEncoder().encode(lines.join(''))
    expect(bytes.length).toBeGreaterThan(16 * 1024)
    expect(read(bytes, 'wasm')).toEqual(read(bytes, 'js'))
    expect(read(bytes, 'auto')).toEqual(read(bytes, 'js'))
  })

  it('ranks a batch held in its memory as the JS ranker does', () => {
    const lines: string[] = []
    // ties every few lines, one topic out of score order
    for (let i = 0; i < 3000; i += 1) lines.push(`${1 + Math.floor(i / 100)} Q0 d${(i * 13) % 997} ${i % 100} ${i < 100 ? i % 7 : (100 - (i % 100)) >> 2} r\n`)
    const text = lines.join('')
    const builder = new RunBuilder('f', 'run', 0, 'wasm', 1 << 20)
    builder.push(new TextEncoder().encode(text))
    const run = builder.finishBatches()
    expect(kernelOf(run)).not.toBeNull()
    const qrels = parseQrels(Array.from({ length: 30 }, (_, q) => `${q + 1} 0 d${q * 31 + 1} 1\n${q + 1} 0 d${q * 13 + 2} 2`).join('\n'))
    const measures = ['official', 'relstring', 'ndcg_cut.10']
    expect(evaluateTrec(qrels, run, measures, {}, 'f')).toEqual(evaluateTrec(qrels, parseRun(text), measures, {}, 'f'))
  })
})
