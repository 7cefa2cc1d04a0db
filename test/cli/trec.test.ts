// `rag-matchers trec` in process (main(argv, io) with captured output), plus one child-process smoke test of the
// built CLI. The golden and peer byte-for-byte comparisons live in test/parity/trec-eval*.parity.test.ts.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseQrels, parseRun, trecEval } from '../../src/retrieval/trec/index.js'
import { fixturePath, loadFixture } from '../parity/fixtures/load.js'
import { runCli } from './run-cli.js'
import { tempFiles } from './temp-files.js'

const QRELS = fixturePath('trec_eval/qrels.test')
const RESULTS = fixturePath('trec_eval/results.test')
const OUT_TEST = readFileSync(fixturePath('trec_eval/expected/out.test'), 'utf8')

const files = tempFiles('rag-trec-cli-')
afterAll(() => files.cleanup())
const write = files.write

describe('rag-matchers trec: options', () => {
  it('defaults to the official measures (= out.test)', async () => {
    expect(await runCli(['trec', QRELS, RESULTS])).toEqual({ code: 0, stdout: OUT_TEST, stderr: '' })
  })

  it('accepts getopt forms: attached values, clusters, long options, options after the files', async () => {
    const want = await runCli(['trec', '-q', '-c', '-m', 'P.5', '-M', '100', QRELS, RESULTS])
    expect(want.code).toBe(0)
    for (const argv of [
      ['-qc', '-mP.5', '-M100', QRELS, RESULTS],
      [QRELS, RESULTS, '-q', '-c', '-m', 'P.5', '-M', '100'],
      ['--query_eval_wanted', '--complete_rel_info_wanted', '--measure=P.5', '--Max_retrieved_per_topic', '100', QRELS, RESULTS],
    ]) {
      expect(await runCli(['trec', ...argv])).toEqual(want)
    }
  })

  it('reads either file from stdin with -', async () => {
    expect(await runCli(['trec', QRELS, '-'], readFileSync(RESULTS))).toEqual({ code: 0, stdout: OUT_TEST, stderr: '' })
    expect(await runCli(['trec', '-', RESULTS], readFileSync(QRELS, 'utf8'))).toEqual({ code: 0, stdout: OUT_TEST, stderr: '' })
  })

  it('-n drops the summary, -q adds per-topic lines', async () => {
    expect((await runCli(['trec', '-n', QRELS, RESULTS])).stdout).toBe('')
    const q = await runCli(['trec', '-q', '-n', '-m', 'map', QRELS, RESULTS])
    // trec_eval's own -q output for the same files, its per-topic map lines
    const aq = readFileSync(fixturePath('trec_eval/expected/out.test.aq'), 'utf8').split('\n')
    const mapLines = aq.filter((line) => /^map {19}\t\d+\t/.test(line))
    expect(mapLines).toHaveLength(3)
    expect(q.stdout).toBe(`${mapLines.join('\n')}\n`)
  })

  it('--json prints per-topic and summary values at full precision', async () => {
    const out = await runCli(['trec', '--json', '-m', 'map', '-m', 'P.5,10', '-m', 'relstring', QRELS, RESULTS])
    expect(out.code).toBe(0)
    const json = JSON.parse(out.stdout)
    const res = trecEval(parseQrels(readFileSync(QRELS, 'utf8')), parseRun(readFileSync(RESULTS, 'utf8')), ['map', 'P.5,10', 'relstring'])
    expect(json).toEqual(res)
    // full precision: trec_eval 10.0 built with %.17g on the same files (peers trec_eval.json, run "aq")
    const aq = (loadFixture('trec_eval.json') as { runs: Array<{ id: string; all: Record<string, number>; per_query: Record<string, Record<string, number>> }> }).runs.find(
      (r) => r.id === 'aq',
    )
    expect(Math.abs(json.mean.map - (aq?.all.map as number))).toBeLessThanOrEqual(1e-12)
    expect(Math.abs(json.perQuery['302'].P_10 - (aq?.per_query['302']?.P_10 as number))).toBeLessThanOrEqual(1e-12)
    expect(Object.keys(json)).toEqual(['perQuery', 'mean', 'topics', 'runId', 'relstring'])
  })

  it('--help prints the options and exits 0', async () => {
    const out = await runCli(['trec', '--help'])
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('Usage: rag-matchers trec QRELS RUN [options]')
    expect(out.stdout).toContain('Exit codes: 0 ok, 1 usage')
  })
})

describe('rag-matchers trec: errors and exit codes', () => {
  it('1 for usage errors: wrong file count, unknown option, bad values, unknown measure, two stdins', async () => {
    const cases: Array<[string[], string]> = [
      [[QRELS], 'expected two files, QRELS and RUN, got 1'],
      [['-x', QRELS, RESULTS], 'unknown option -x'],
      [['--nope', QRELS, RESULTS], 'unknown option --nope'],
      [['-M', '0', QRELS, RESULTS], "option -M expects a positive integer, got '0'"],
      [['-l', 'two', QRELS, RESULTS], "option -l expects an integer, got 'two'"],
      [['-m'], 'option -m needs a value'],
      [['-m', 'P.0', QRELS, RESULTS], 'positive cutoffs'],
      [['-m', 'ndcg_at', QRELS, RESULTS], "unknown measure 'ndcg_at' — did you mean 'ndcg_cut'?"],
      [['-', '-'], "only one of QRELS and RUN can be '-'"],
    ]
    for (const [argv, message] of cases) {
      const out = await runCli(['trec', ...argv])
      expect([out.code, out.stdout], argv.join(' ')).toEqual([1, ''])
      expect(out.stderr).toContain(message)
    }
  })

  it('prints one prefix: a core message does not repeat the command (issue #15)', async () => {
    const out = await runCli(['trec', '-m', 'P.0', QRELS, RESULTS])
    expect(out.code).toBe(1)
    expect(out.stderr).toMatch(/^rag-matchers trec: Expected `measures` to be /)
    expect(out.stderr).not.toContain('trec: trec:')
  })

  it('suggests the trec_eval measure for other spellings and near misses instead of listing them all (issue #15)', async () => {
    const cases: Array<[string, string]> = [
      ['ndcg@10', 'ndcg_cut.10'],
      ['NDCG@5', 'ndcg_cut.5'],
      ['P@5', 'P.5'],
      ['precision@20', 'P.20'],
      ['recall@100', 'recall.100'],
      ['map@10', 'map_cut.10'],
      ['mrr', 'recip_rank'],
      ['mrr@10', 'recip_rank'],
      ['recip_rnak', 'recip_rank'],
      ['ndgc_cut.10', 'ndcg_cut.10'],
    ]
    for (const [measure, near] of cases) {
      const out = await runCli(['trec', '-m', measure, QRELS, RESULTS])
      expect([out.code, out.stdout], measure).toEqual([1, ''])
      expect(out.stderr, measure).toBe(`rag-matchers trec: unknown measure '${measure}' — did you mean '${near}'?\n`)
    }
    const far = await runCli(['trec', '-m', 'bleurt', QRELS, RESULTS])
    expect(far.stderr).toMatch(/^rag-matchers trec: unknown measure 'bleurt'; the measures are .*ndcg_cut.* and the sets official/)
  })

  it('2 for input errors, naming the file and the line', async () => {
    const missing = await runCli(['trec', files.path('nope.qrels'), RESULTS])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(`rag-matchers trec: cannot read '${files.path('nope.qrels')}': ENOENT (open)\n`)
    const badRun = write('bad.run', '301 Q0 A 1 1.0 r\n# fine\n301 Q0 B 2 0.5\n')
    const out = await runCli(['trec', QRELS, badRun])
    expect(out.code).toBe(2)
    expect(out.stderr).toBe(`rag-matchers trec: ${badRun} line 3: malformed, expected a run line \`qid iter docno rank sim run_id\`: "301 Q0 B 2 0.5"\n`)
    const badQrels = write('bad.qrels', '301 0 A 1 extra\n')
    expect((await runCli(['trec', badQrels, RESULTS])).stderr).toContain(`${badQrels} line 1: malformed, expected a qrels line`)
    expect((await runCli(['trec', write('empty.qrels', '\n'), RESULTS])).code).toBe(2)
  })

  it('4 when trec_eval refuses to evaluate: duplicate docno, topic without results', async () => {
    const qrels = write('q', '1 0 a 1\n2 0 b 1\n')
    const dup = await runCli(['trec', qrels, write('dup.run', '1 Q0 a 1 1 r\n1 Q0 a 2 0.5 r\n2 Q0 b 1 1 r\n')])
    expect(dup.code).toBe(4)
    expect(dup.stderr).toContain("docno 'a' is retrieved more than once for topic '1'")
    const missing = await runCli(['trec', qrels, write('one.run', '1 Q0 a 1 1 r\n')])
    expect(missing.code).toBe(4)
    expect(missing.stderr).toContain("topic '2' has judgments")
    expect((await runCli(['trec', '-c', qrels, write('one.run', '1 Q0 a 1 1 r\n')])).code).toBe(0)
  })
})

// The built CLI as a real process. `npm run build` makes dist/cli/main.js; without it this test cannot run.
const built = resolve(__dirname, '../../dist/cli/main.js')
if (!existsSync(built)) console.warn(`skipping the child-process smoke test of rag-matchers trec: ${built} is missing (run \`npm run build\`)`)

describe('rag-matchers trec as a child process', () => {
  it.skipIf(!existsSync(built))('node dist/cli/main.js trec prints out.test and exits 0; exit 4 on a refused run', () => {
    const ok = spawnSync(process.execPath, [built, 'trec', QRELS, RESULTS], { encoding: 'utf8' })
    expect([ok.status, ok.stdout, ok.stderr]).toEqual([0, OUT_TEST, ''])
    const refused = spawnSync(process.execPath, [built, 'trec', QRELS, fixturePath('trec_eval/results.trunc')], { encoding: 'utf8' })
    expect(refused.status).toBe(4)
  })
})
