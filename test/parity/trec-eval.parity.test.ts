// trec_eval 10.0 parity on the golden TREC cases (shared/golden/public/retrieval.json → trec_cases): every
// per-topic and `all` value of the custom, custom_c, all_trec and all_trec_c runs to 1e-12, the refused inputs,
// and the stock 4-decimal output of the CLI line by line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseQrels, parseRun, trecEval, TrecEvalError, type TrecEvalOptions } from '../../src/retrieval/trec/index.js'
import { runCli } from '../cli/run-cli.js'
import { loadFixture } from './fixtures/load.js'

interface TrecRunRecord {
  cmd: string
  exit_code: number
  stderr: string
  per_query?: Record<string, Record<string, number | string>>
  all?: Record<string, number | string>
  stdout_stock_4dp?: string
}
interface TrecCase {
  id: string
  qrels_text: string
  run_text: string
  trec_eval: Record<string, Record<string, TrecRunRecord>>
}

const golden = loadFixture<{ trec_cases: TrecCase[] }>('retrieval.json')
const VARIANTS = ['custom', 'custom_c', 'all_trec', 'all_trec_c'] as const
const TOL = 1e-12

/** `trec_eval -q -c -m A -m B QRELS RUN` → measures and options. */
function fromCmd(cmd: string): { measures: string[]; options: TrecEvalOptions } {
  const args = cmd.split(/\s+/).slice(1)
  const measures: string[] = []
  let completeTopics = false
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '-m') measures.push(args[++i] as string)
    else if (args[i] === '-c') completeTopics = true
  }
  return { measures, options: { completeTopics } }
}

const compared = { values: 0, bitwise: 0 }

describe('trec_eval 10.0 golden cases (retrieval.json)', () => {
  it('has the six documented cases', () => {
    expect(golden.trec_cases.map((c) => c.id)).toEqual(['graded_ties', 'missing_topics', 'random_graded', 'float32_ties', 'bpref_edge', 'duplicate_docno'])
  })

  for (const c of golden.trec_cases) {
    describe(c.id, () => {
      for (const variant of VARIANTS) {
        const ref = c.trec_eval['10.0']?.[variant] as TrecRunRecord
        const { measures, options } = fromCmd(ref.cmd)

        if (ref.exit_code === 0) {
          it(`${variant}: every per-topic and summary value to 1e-12`, () => {
            const res = trecEval(parseQrels(c.qrels_text), parseRun(c.run_text), measures, options)
            const perQuery = ref.per_query ?? {}
            expect(res.topics).toEqual(Object.keys(perQuery))
            let n = 0
            for (const [qid, values] of Object.entries(perQuery)) {
              for (const [name, want] of Object.entries(values)) {
                if (name === 'relstring') {
                  expect(`'${res.relstring?.[qid]}'`, `${qid} relstring`).toBe(want)
                } else {
                  const got = res.perQuery[qid]?.[name] as number
                  expect(Math.abs(got - (want as number)), `${qid} ${name}: ${got} vs ${want}`).toBeLessThanOrEqual(TOL)
                  if (got === want) compared.bitwise += 1
                }
                n += 1
              }
              // nothing printed per topic that trec_eval does not print
              expect(Object.keys(res.perQuery[qid] ?? {}).length + (res.relstring ? 1 : 0)).toBe(Object.keys(values).length)
            }
            for (const [name, want] of Object.entries(ref.all ?? {})) {
              if (name === 'runid') expect(res.runId).toBe(want)
              else {
                const got = res.mean[name] as number
                expect(Math.abs(got - (want as number)), `all ${name}: ${got} vs ${want}`).toBeLessThanOrEqual(TOL)
                if (got === want) compared.bitwise += 1
              }
              n += 1
            }
            const printed = [...Object.keys(res.mean), ...(ref.all?.runid === undefined ? [] : ['runid'])]
            expect(printed.sort()).toEqual(Object.keys(ref.all ?? {}).sort())
            compared.values += n
            expect(n).toBeGreaterThan(0)
          })
        } else {
          it(`${variant}: refused like trec_eval (exit ${ref.exit_code}: ${ref.stderr.slice(0, 60)})`, () => {
            let error: unknown
            try {
              trecEval(parseQrels(c.qrels_text), parseRun(c.run_text), measures, options)
            } catch (e) {
              error = e
            }
            expect(error).toBeInstanceOf(TrecEvalError)
            const e = error as TrecEvalError
            const missing = /result qid '([^']+)' not found/.exec(ref.stderr)
            const duplicate = /duplicate docs (\S+?)trec_eval/.exec(ref.stderr)
            if (missing) expect([e.code, e.topic]).toEqual(['missing-topic', missing[1]])
            else if (duplicate) expect([e.code, e.docno]).toEqual(['duplicate-docno', duplicate[1]])
            else throw new Error(`unexpected reference error: ${ref.stderr}`)
            expect(e.message).toContain('trecEval: Expected `')
          })
        }

        if (ref.stdout_stock_4dp !== undefined || (variant.startsWith('custom') && ref.exit_code !== 0)) {
          it(`${variant}: the CLI prints trec_eval's stock output line by line`, async () => {
            const dir = mkdtempSync(join(tmpdir(), 'rag-trec-'))
            try {
              writeFileSync(join(dir, 'qrels'), c.qrels_text)
              writeFileSync(join(dir, 'run'), c.run_text)
              const argv = [
                'trec',
                ...ref.cmd
                  .split(/\s+/)
                  .slice(1)
                  .map((a) => (a === 'QRELS' ? join(dir, 'qrels') : a === 'RUN' ? join(dir, 'run') : a)),
              ]
              const out = await runCli(argv)
              expect(out.code).toBe(ref.exit_code)
              if (ref.exit_code === 0) {
                const want = (ref.stdout_stock_4dp as string).split('\n')
                expect(out.stdout.split('\n')).toEqual(want)
              } else {
                expect(out.stderr).toMatch(/rag-matchers trec: /)
              }
            } finally {
              rmSync(dir, { recursive: true, force: true })
            }
          })
        }
      }
    })
  }

  it('compared a plausible number of values (all of them)', () => {
    // 4 cases with values × (custom, custom_c, all_trec, all_trec_c) + missing_topics' two -c runs
    expect(compared.values).toBeGreaterThan(5000)
  })
})
