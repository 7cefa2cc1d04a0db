// `rag-matchers rouge` in process: the golden rouge-score 0.1.2 cases (fixtures/generation.json) written as line
// files, per segment (-sl) and as the mean over segments; output format, options and errors.
import { VERSION } from '../../src/version.js'
import { close } from '../parity/golden-generation.js'
import { runCli } from './run-cli.js'
import { tempFiles } from './temp-files.js'
import { caseCorpora, pythonFixed, streamsOf, writeCorpus } from './text-fixtures.js'

const files = tempFiles('rag-rouge-cli-')
afterAll(() => files.cleanup())

const TYPES = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const
const NAMES: Record<(typeof TYPES)[number], string> = { rouge1: 'ROUGE-1', rouge2: 'ROUGE-2', rougeL: 'ROUGE-L', rougeLsum: 'ROUGE-Lsum' }

type Prf = { precision: number; recall: number; fmeasure: number }

describe('rag-matchers rouge: golden rouge-score 0.1.2 cases', () => {
  it('-sl --json equals score_multi of every case, stemmed and not, at 1e-9; the corpus value is their mean', async () => {
    const bad: string[] = []
    let compared = 0
    for (const stem of ['nostem', 'stem'] as const) {
      for (const { nrefs, cases } of caseCorpora()) {
        const [hyp, refs] = writeCorpus(
          files,
          `${stem}${nrefs}`,
          cases.map((c) => c.hypothesis),
          streamsOf(cases, nrefs),
        )
        const flags = stem === 'stem' ? ['--stemmer'] : []
        const sl = await runCli(['rouge', '-sl', '--json', ...refs, '-i', hyp, ...flags])
        expect([sl.code, sl.stderr]).toEqual([0, ''])
        const lines = sl.stdout.split('\n').slice(0, -1)
        expect(lines).toHaveLength(cases.length)
        const sums = Object.fromEntries(TYPES.map((t) => [t, { p: 0, r: 0, f: 0 }]))
        cases.forEach((c, i) => {
          const got = JSON.parse(lines[i] as string) as Record<string, Prf>
          for (const t of TYPES) {
            const want = c.rouge[stem][t]!
            for (const [k, a, e] of [
              ['p', got[t]?.precision, want.p],
              ['r', got[t]?.recall, want.r],
              ['f', got[t]?.fmeasure, want.f],
            ] as const) {
              compared++
              if (a === undefined || !close(a, e)) bad.push(`${c.id} ${stem} ${t}.${k}: ${a} vs ${e}`)
            }
            sums[t]!.p += want.p
            sums[t]!.r += want.r
            sums[t]!.f += want.f
          }
        })
        const corpus = await runCli(['rouge', '--json', ...refs, '-i', hyp, ...flags])
        const json = JSON.parse(corpus.stdout) as { segments: number; nrefs: number; stemmer: boolean; scores: Record<string, Prf & { name: string; signature: string }> }
        expect([json.segments, json.nrefs, json.stemmer]).toEqual([cases.length, nrefs, stem === 'stem'])
        for (const t of TYPES) {
          const n = cases.length
          const got = json.scores[t]!
          expect(got.name).toBe(NAMES[t])
          for (const [a, e] of [
            [got.precision, sums[t]!.p / n],
            [got.recall, sums[t]!.r / n],
            [got.fmeasure, sums[t]!.f / n],
          ] as const) {
            compared++
            if (!close(a, e)) bad.push(`mean ${stem} nrefs ${nrefs} ${t}: ${a} vs ${e}`)
          }
        }
      }
    }
    console.log(
      `rouge CLI parity: ${compared - bad.length}/${compared} values (283 cases × 4 types × P/R/F × stem/nostem, and the means) equal to rouge-score 0.1.2 (1e-9 relative)`,
    )
    expect(bad).toEqual([])
    expect(compared).toBe(2 * (283 * 4 * 3 + 4 * 4 * 3))
  })

  it('prints a header saying what the corpus value is, then one line per type with the signature', async () => {
    const { cases } = caseCorpora()[0]!
    const some = cases.slice(0, 12)
    const [hyp, refs] = writeCorpus(
      files,
      'text',
      some.map((c) => c.hypothesis),
      streamsOf(some, 1),
    )
    const out = await runCli(['rouge', ...refs, '-i', hyp, '--stemmer', '--types', 'rougeL,rouge1'])
    expect([out.code, out.stderr]).toEqual([0, ''])
    const mean = (t: 'rouge1' | 'rougeL', k: 'p' | 'r' | 'f') => some.reduce((s, c) => s + c.rouge.stem[t]![k], 0) / some.length
    const line = (t: 'rouge1' | 'rougeL', sig: string) => `${sig} = ${pythonFixed(mean(t, 'f'), 4)} (P = ${pythonFixed(mean(t, 'p'), 4)} R = ${pythonFixed(mean(t, 'r'), 4)})`
    expect(out.stdout.split('\n')).toEqual([
      '# ROUGE: mean over 12 segments of the per-segment precision, recall and F (rouge-score score_multi per segment); F is not recomputed from the mean P and R',
      line('rougeL', `ROUGE-L|nrefs:1|tok:rouge-default|stem:yes|agg:mean|version:${VERSION}`),
      line('rouge1', `ROUGE-1|nrefs:1|tok:rouge-default|stem:yes|agg:mean|version:${VERSION}`),
      '',
    ])
    const scoreOnly = await runCli(['rouge', ...refs, '-i', hyp, '--types', 'rouge1', '-b', '-w', '2'])
    expect(scoreOnly.stdout).toBe(`${pythonFixed(some.reduce((s, c) => s + c.rouge.nostem.rouge1!.f, 0) / some.length, 2)}\n`)
    const sl = await runCli(['rouge', ...refs, '-i', hyp, '-sl', '--types', 'rouge2'])
    expect(sl.stdout.split('\n').slice(0, -1)).toEqual(
      some.map((c) => {
        const x = c.rouge.nostem.rouge2!
        return `ROUGE-2 = ${pythonFixed(x.f, 4)} (P = ${pythonFixed(x.p, 4)} R = ${pythonFixed(x.r, 4)})`
      }),
    )
  })

  it('exit 1 for an unknown type or option, exit 2 for unreadable input', async () => {
    const ref = files.write('u.ref', 'a b c\n')
    const bad = await runCli(['rouge', ref, '--types', 'rouge1,rougeW'], 'a b\n')
    expect([bad.code, bad.stdout]).toEqual([1, ''])
    expect(bad.stderr).toContain(
      "rag-matchers rouge: option --types expects a comma-separated list of rouge1, rouge2, rouge3, rouge4, rouge5, rouge6, rouge7, rouge8, rouge9, rougeL, rougeLsum, got 'rougeW'",
    )
    expect((await runCli(['rouge', ref, '-tok', 'none'], 'a\n')).code).toBe(1)
    const invalid = await runCli(['rouge', ref], new Uint8Array([0x61, 0xff, 0x0a]))
    expect(invalid).toEqual({ code: 2, stdout: '', stderr: 'rag-matchers rouge: <stdin> is not valid UTF-8\n' })
  })
})
