// `rag-matchers trec --threads 2` (the second half of the run file in a worker thread) prints exactly what one
// thread prints, for good runs and for every way a run is refused. Needs the built CLI (the worker is a built
// module; `npm test` builds first).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll } from 'vitest'
import { mulberry32 } from '../../src/eval-set/statistics.js'
import { tempFiles } from './temp-files.js'

const built = resolve(__dirname, '../../dist/cli/main.js')
const worker = resolve(__dirname, '../../dist/src/retrieval/trec/range-worker.js')
if (!existsSync(built)) console.warn(`skipping the --threads tests of rag-matchers trec: ${built} is missing (run \`npm run build\`)`)

const files = tempFiles('rag-trec-threads-')
afterAll(() => files.cleanup())

/** 300 topics × 40 documents with tied scores; qrels for most of them and for one topic the run lacks ('050'). */
function workload(seed: number) {
  const rand = mulberry32(seed)
  const run: string[] = []
  const qrels: string[] = []
  for (let t = 0; t < 300; t += 1) {
    const qid = `${100 + t}`
    for (let d = 0; d < 40; d += 1) run.push(`${qid} Q0 D${Math.floor(rand() * 1e6)}x${d} ${d + 1} ${(40 - d - (rand() < 0.3 ? 1 : 0)) / 4} sys\n`)
    if (t % 7 !== 3) for (let j = 0; j < 5; j += 1) qrels.push(`${qid} 0 D${Math.floor(rand() * 1e6)}x${Math.floor(rand() * 40)} ${Math.floor(rand() * 3)}\n`)
  }
  qrels.push('050 0 D1x1 1\n')
  return { run, qrels: qrels.join('') }
}

function trec(args: string[]) {
  const r = spawnSync(process.execPath, [built, 'trec', ...args], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe.skipIf(!existsSync(built))('rag-matchers trec --threads 2', () => {
  const { run, qrels } = workload(17)
  const qrelsPath = files.write('qrels', qrels)
  const same = (runLines: string[], extra: string[] = []) => {
    const path = files.write(`run-${Math.random().toString(36).slice(2)}`, runLines.join(''))
    const one = trec([qrelsPath, path, ...extra, '--threads', '1'])
    const two = trec([qrelsPath, path, ...extra, '--threads', '2'])
    expect(two).toEqual(one)
    return one
  }

  it('the worker module is built where the reader looks for it', () => {
    expect(existsSync(worker)).toBe(true)
  })

  it('prints the same per-topic and summary lines, and the same JSON', () => {
    const text = same(run, ['-q', '-c', '-m', 'all_trec'])
    expect(text.status).toBe(0)
    // about 250 evaluated topics × 100 per-topic lines
    expect(text.stdout.split('\n').length).toBeGreaterThan(20_000)
    expect(same(run, ['-c', '--json', '-m', 'ndcg_cut.10', '-m', 'map']).status).toBe(0)
  })

  it('refuses a qrels topic without results (no -c) as one thread does', () => {
    const refused = same(run)
    expect([refused.status, refused.stderr]).toEqual([4, expect.stringContaining("topic '050' has judgments")])
  })

  it('names the first malformed line, wherever it is', () => {
    const bad = [...run]
    bad[run.length - 10] = '390 Q0 D1 1\n'
    const refused = same(bad, ['-c'])
    expect([refused.status, refused.stderr]).toEqual([2, expect.stringContaining(`line ${run.length - 9}: malformed`)])
  })

  it('finds a duplicate docno in the second half, and prefers the earlier topic’s error', () => {
    const dup = [...run]
    dup[run.length - 5] = dup[run.length - 6] as string
    const second = same(dup, ['-c'])
    expect([second.status, second.stderr]).toEqual([4, expect.stringContaining("for topic '399'")])
    dup[5] = dup[4] as string
    const first = same(dup, ['-c'])
    expect([first.status, first.stderr]).toEqual([4, expect.stringContaining("for topic '100'")])
  })

  it('reads a run whose topic resumes in the other half (falls back to reading it whole)', () => {
    const resumed = [...run, '100 Q0 LATE 41 0.01 sys\n']
    expect(same(resumed, ['-q', '-c', '-m', 'num_ret']).stdout).toContain('num_ret               \t100\t41')
  })

  it('refuses a value other than 1 or 2', () => {
    const r = trec([qrelsPath, qrelsPath, '--threads', '3'])
    expect([r.status, r.stderr]).toEqual([1, expect.stringContaining('option --threads expects 1 or 2')])
  })
})
