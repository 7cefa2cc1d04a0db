// `rag-matchers sacrebleu` (and `ter`, and the JSON default of `bleu`/`chrf`) against sacrebleu 2.6.0's numbers:
// `-m bleu chrf ter` on the golden TER corpora (fixtures/sacrebleu-extra/ter.json) and the golden BLEU/chrF corpora
// (fixtures/generation.json), `-tok zh` (tokenize_zh.json), `--confidence` and the paired tests
// (significance.json), sacrebleu's JSON and text shapes, the multi-system table and the usage errors.
import { corpusBleu } from '../../src/generation/bleu.js'
import { corpusChrf } from '../../src/generation/chrf.js'
import { VERSION } from '../../src/version.js'
import { loadFixture } from '../parity/fixtures/load.js'
import { runCli } from './run-cli.js'
import { tempFiles } from './temp-files.js'
import { fileCorpora, linesFile, pythonFixed, writeCorpus } from './text-fixtures.js'

const files = tempFiles('rag-sacrebleu-cli-')
afterAll(() => files.cleanup())

interface TerValues {
  score: number
  num_edits: number
  ref_length: number
  signature: string
}
interface TerGolden {
  ter: {
    combos: Record<string, { kwargs: Record<string, boolean> }>
    corpora: Array<{ id: string; hypotheses: string[]; references: Array<Array<string | null>>; ter: Record<string, TerValues> }>
  }
}
interface ZhGolden {
  tokenize_zh: {
    sentence_bleu: Array<{ hypothesis: string; references: string[] }>
    corpus: { corpus_bleu_zh: { score: number; precisions: number[]; bp: number; sys_len: number; ref_len: number }; signature: string }
  }
}
interface BootstrapValues {
  score: number
  mean: number
  ci: number
  format: string
  signature: string
}
interface PairedRow {
  system: string
  score: number
  p_value: number | null
  mean: number | null
  ci: number | null
}
interface SignificanceGolden {
  bootstrap_ci: Array<{ id: string; seed: number; n_bootstrap: number; hypotheses: string[]; references: string[][]; bleu: BootstrapValues; chrf: BootstrapValues }>
  paired: Array<{
    id: string
    seed: number
    references: string[][]
    systems: Array<{ name: string; hypotheses: string[] }>
    tests: Array<{ test_type: 'bs' | 'ar'; n_samples: number; n_ar_confidence: number; signatures: Record<string, string>; results: Record<string, PairedRow[]> }>
  }>
}

const ter = loadFixture<TerGolden>('sacrebleu-extra/ter.json').ter
const zh = loadFixture<ZhGolden>('sacrebleu-extra/tokenize_zh.json').tokenize_zh
const significance = loadFixture<SignificanceGolden>('sacrebleu-extra/significance.json')

/** The golden signatures say `version:2.6.0`; ours carry this library's version. */
const ourVersion = (signature: string) => signature.replace(/version:[^|]*$/, `version:${VERSION}`)

/** sacrebleu's TER keyword arguments as its command-line flags. */
const TER_FLAGS: Record<string, string> = {
  normalized: '--ter-normalized',
  no_punct: '--ter-no-punct',
  asian_support: '--ter-asian-support',
  case_sensitive: '--ter-case-sensitive',
}

/** Runs with SACREBLEU_SEED set (sacrebleu's seed rule) and restores the environment. */
async function withSeed<T>(seed: number, fn: () => Promise<T>): Promise<T> {
  const before = process.env.SACREBLEU_SEED
  process.env.SACREBLEU_SEED = String(seed)
  try {
    return await fn()
  } finally {
    if (before === undefined) delete process.env.SACREBLEU_SEED
    else process.env.SACREBLEU_SEED = before
  }
}

const close = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b))

describe('rag-matchers sacrebleu -m bleu chrf ter: golden sacrebleu 2.6.0 numbers', () => {
  const terCorpora = ter.corpora.filter((c) => !c.references.flat().includes(null))

  it('JSON: a list with one object per metric in sacrebleu order; TER equals the golden corpora under all 9 combinations', async () => {
    expect(terCorpora).toHaveLength(9)
    let checked = 0
    for (const corpus of terCorpora) {
      const [hyp, refs] = writeCorpus(files, corpus.id, corpus.hypotheses, corpus.references)
      for (const [combo, { kwargs }] of Object.entries(ter.combos)) {
        const flags = Object.keys(kwargs).map((k) => TER_FLAGS[k]!)
        const out = await runCli(['sacrebleu', ...refs, '-i', hyp, '-m', 'ter', 'bleu', 'chrf', '-w', '10', ...flags])
        expect([out.code, out.stderr], `${corpus.id} ${combo}`).toEqual([0, ''])
        const list = JSON.parse(out.stdout) as Array<Record<string, unknown>>
        expect(list.map((o) => o.name)).toEqual(['BLEU', 'chrF2', 'TER'])
        const want = corpus.ter[combo]!
        const t = list[2]!
        expect(Object.keys(t)).toEqual(['name', 'score', 'signature', 'nrefs', 'case', 'tok', 'norm', 'punct', 'asian', 'version'])
        expect([t.score, t.signature], `${corpus.id} ${combo}`).toEqual([Number(pythonFixed(want.score, 10)), ourVersion(want.signature)])
        // BLEU and chrF of the same run: the library's corpus scores (their own parity is tested against sacrebleu)
        expect(list[0]!.score).toBe(Number(pythonFixed(corpusBleu(corpus.hypotheses, corpus.references as string[][]).value, 10)))
        expect(list[1]!.score).toBe(Number(pythonFixed(corpusChrf(corpus.hypotheses, corpus.references as string[][]).value, 10)))
        checked++
      }
    }
    expect(checked).toBe(9 * 9)
  })

  it('JSON: BLEU and chrF equal the golden corpora, rounded to -w and written as Python writes floats', async () => {
    for (const corpus of fileCorpora) {
      const [hyp, refs] = writeCorpus(files, `gen-${corpus.id}`, corpus.hypotheses, corpus.references)
      for (const width of [1, 4]) {
        const out = await runCli(['sacrebleu', ...refs, '-i', hyp, '-m', 'bleu', 'chrf', 'ter', '-w', String(width)])
        expect([out.code, out.stderr]).toEqual([0, ''])
        const [bleu, chrf] = JSON.parse(out.stdout) as Array<Record<string, unknown>>
        const b = corpus.corpus_bleu
        expect(bleu).toEqual({
          name: 'BLEU',
          score: Number(pythonFixed(b.score, width)),
          signature: `nrefs:${refs.length}|case:mixed|eff:no|tok:13a|smooth:exp|version:${VERSION}`,
          verbose_score: `${b.precisions.map((p) => pythonFixed(p, 1)).join('/')} (BP = ${pythonFixed(b.bp, 3)} ratio = ${pythonFixed(b.sys_len / b.ref_len, 3)} hyp_len = ${b.sys_len} ref_len = ${b.ref_len})`,
          nrefs: String(refs.length),
          case: 'mixed',
          eff: 'no',
          tok: '13a',
          smooth: 'exp',
          version: VERSION,
        })
        expect(chrf!.score).toBe(Number(pythonFixed(corpus.corpus_chrf, width)))
        // Python's repr: a whole number keeps '.0' (the identical corpus scores 100)
        expect(out.stdout).toContain(
          `"score": ${Number.isInteger(Number(pythonFixed(b.score, width))) ? `${Number(pythonFixed(b.score, width))}.0` : pythonFixed(b.score, width).replace(/0+$/, '')},`,
        )
        // sacrebleu joins each metric's indent-1 object into the list as it is (recorded in ter-significance.json → cli)
        expect(out.stdout.startsWith('[\n{\n "name": "BLEU",\n')).toBe(true)
      }
    }
    const identical = fileCorpora.find((c) => c.id === 'identical5')!
    const [hyp, refs] = writeCorpus(files, 'ident', identical.hypotheses, identical.references)
    expect((await runCli(['sacrebleu', ...refs, '-i', hyp])).stdout).toMatch(/^\{\n "name": "BLEU",\n "score": 100\.0,\n "signature": "nrefs:/)
  })

  it('-f text: one Score.format line per metric, right-aligned on " = ", with the golden numbers', async () => {
    const corpus = fileCorpora.find((c) => c.id === 'multiref10')!
    const [hyp, refs] = writeCorpus(files, 'text', corpus.hypotheses, corpus.references)
    const out = await runCli(['sacrebleu', ...refs, '-i', hyp, '-m', 'chrf', 'ter', 'bleu', '-f', 'text'])
    expect([out.code, out.stderr]).toEqual([0, ''])
    const lines = out.stdout.split('\n')
    expect(lines).toHaveLength(4)
    expect(lines[3]).toBe('')
    const at = lines.slice(0, 3).map((l) => l.indexOf(' = '))
    expect(new Set(at).size).toBe(1)
    const b = corpus.corpus_bleu
    expect(lines[0]!.trimStart()).toBe(
      `BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:${VERSION} = ${pythonFixed(b.score, 1)} ${b.precisions.map((p) => pythonFixed(p, 1)).join('/')} (BP = ${pythonFixed(b.bp, 3)} ratio = ${pythonFixed(b.sys_len / b.ref_len, 3)} hyp_len = ${b.sys_len} ref_len = ${b.ref_len})`,
    )
    expect(lines[1]!.trimStart()).toBe(`chrF2|nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:${VERSION} = ${pythonFixed(corpus.corpus_chrf, 1)}`)
    expect(lines[2]!.trimStart()).toMatch(
      new RegExp(`^TER\\|nrefs:2\\|case:lc\\|tok:tercom\\|norm:no\\|punct:yes\\|asian:no\\|version:${VERSION.replace(/\./g, '\\.')} = \\d+\\.\\d$`),
    )
    // -b: the scores alone, one per line
    expect((await runCli(['sacrebleu', ...refs, '-i', hyp, '-m', 'bleu', 'chrf', '-f', 'text', '-b'])).stdout).toBe(
      `${pythonFixed(b.score, 1)}\n${pythonFixed(corpus.corpus_chrf, 1)}\n`,
    )
  })

  it('rag-matchers ter: JSON by default, -f text, as sacrebleu -m ter', async () => {
    const corpus = terCorpora[1]!
    const [hyp, refs] = writeCorpus(files, 'ter-cmd', corpus.hypotheses, corpus.references)
    const want = corpus.ter.normalized!
    const json = await runCli(['ter', ...refs, '-i', hyp, '--ter-normalized', '-w', '3'])
    expect(JSON.parse(json.stdout)).toMatchObject({ name: 'TER', score: Number(pythonFixed(want.score, 3)), signature: ourVersion(want.signature) })
    expect(await runCli(['ter', ...refs, '-i', hyp, '--ter-normalized', '-f', 'text'])).toEqual({
      code: 0,
      stdout: `TER|${ourVersion(want.signature)} = ${pythonFixed(want.score, 1)}\n`,
      stderr: '',
    })
    const full = JSON.parse((await runCli(['ter', ...refs, '-i', hyp, '--ter-normalized', '--json'])).stdout) as Record<string, number>
    expect([full.score, full.num_edits, full.ref_length]).toEqual([want.score, want.num_edits, want.ref_length])
  })

  it('-tok zh equals the golden zh corpus BLEU', async () => {
    const hyp = files.write('zh.hyp', linesFile(zh.sentence_bleu.map((s) => s.hypothesis)))
    const ref = files.write('zh.ref', linesFile(zh.sentence_bleu.map((s) => s.references[0]!)))
    const out = await runCli(['sacrebleu', ref, '-i', hyp, '-tok', 'zh', '-w', '10'])
    expect([out.code, out.stderr]).toEqual([0, ''])
    const json = JSON.parse(out.stdout) as Record<string, unknown>
    const want = zh.corpus.corpus_bleu_zh
    expect([json.score, json.signature, json.tok]).toEqual([Number(pythonFixed(want.score, 10)), ourVersion(zh.corpus.signature), 'zh'])
    expect(json.verbose_score).toBe(
      `${want.precisions.map((p) => pythonFixed(p, 1)).join('/')} (BP = ${pythonFixed(want.bp, 3)} ratio = ${pythonFixed(want.sys_len / want.ref_len, 3)} hyp_len = ${want.sys_len} ref_len = ${want.ref_len})`,
    )
  })

  it('rag-matchers bleu and chrf print sacrebleu 2.x JSON by default (the score rounded to -w)', async () => {
    const corpus = fileCorpora.find((c) => c.id === 'qa6')!
    const [hyp, refs] = writeCorpus(files, 'default', corpus.hypotheses, corpus.references)
    const bleu = JSON.parse((await runCli(['bleu', ...refs, '-i', hyp])).stdout) as Record<string, unknown>
    expect(Object.keys(bleu)).toEqual(['name', 'score', 'signature', 'verbose_score', 'nrefs', 'case', 'eff', 'tok', 'smooth', 'version'])
    expect(bleu.score).toBe(Number(pythonFixed(corpus.corpus_bleu.score, 1)))
    const chrf = JSON.parse((await runCli(['chrf', ...refs, '-i', hyp, '-w', '2'])).stdout) as Record<string, unknown>
    expect(Object.keys(chrf)).toEqual(['name', 'score', 'signature', 'nrefs', 'case', 'eff', 'nc', 'nw', 'space', 'version'])
    expect(chrf.score).toBe(Number(pythonFixed(corpus.corpus_chrf, 2)))
    // the same run through `sacrebleu` gives the same object
    expect((await runCli(['sacrebleu', ...refs, '-i', hyp, '-m', 'chrf', '-w', '2'])).stdout).toBe((await runCli(['chrf', ...refs, '-i', hyp, '-w', '2'])).stdout)
  })
})

describe('rag-matchers sacrebleu --confidence: golden bootstrap intervals', () => {
  it('JSON confidence_mean / confidence_var and the text line equal sacrebleu on every bootstrap corpus', async () => {
    for (const c of significance.bootstrap_ci) {
      const [hyp, refs] = writeCorpus(files, c.id, c.hypotheses, c.references)
      const argv = ['sacrebleu', ...refs, '-i', hyp, '-m', 'bleu', 'chrf', '--confidence', '-cin', String(c.n_bootstrap)]
      const json = await withSeed(c.seed, () => runCli([...argv, '-w', '10']))
      expect([json.code, json.stderr], c.id).toEqual([0, ''])
      const [bleu, chrf] = JSON.parse(json.stdout) as Array<Record<string, unknown>>
      for (const [got, want, tol] of [
        [bleu!, c.bleu, 1e-9],
        [chrf!, c.chrf, 1e-5],
      ] as const) {
        expect(got.score, c.id).toBe(Number(pythonFixed(want.score, 10)))
        expect(close(got.confidence_mean as number, want.mean, tol), `${c.id} ${String(got.name)} mean ${String(got.confidence_mean)} vs ${want.mean}`).toBe(true)
        expect(close(got.confidence_var as number, want.ci, tol), `${c.id} ${String(got.name)} ci ${String(got.confidence_var)} vs ${want.ci}`).toBe(true)
        expect(got.signature).toBe(ourVersion(want.signature))
        expect(got.bs).toBe(String(c.n_bootstrap))
        expect(got.confidence).toMatch(/^μ = \d+\.\d{10} ± \d+\.\d{10}$/)
      }
      // sacrebleu's own Score.format (golden `format`, printed without a signature) with -w 2
      const text = await withSeed(c.seed, () => runCli([...argv, '-w', '2', '-f', 'text']))
      const lines = text.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.trimStart())
      expect(lines[0]!.replace(/^BLEU\|[^ ]*/, 'BLEU'), c.id).toBe(c.bleu.format)
      expect(lines[1]!.replace(/^chrF2\|[^ ]*/, 'chrF2'), c.id).toBe(c.chrf.format)
    }
  })
})

describe('rag-matchers sacrebleu --paired-bs / --paired-ar: golden paired tests', () => {
  const paired = significance.paired[0]!

  function writeSystems(): [string[], string[]] {
    const refs = paired.references.map((r, k) => files.write(`paired.ref${k}`, linesFile(r)))
    const systems = paired.systems.map((s) => files.write(s.name, linesFile(s.hypotheses)))
    return [refs, systems]
  }

  it('JSON rows equal sacrebleu: scores, p-values, means and intervals of the baseline and three systems', async () => {
    const [refs, systems] = writeSystems()
    const runs: Array<[string[], number]> = [
      [['--paired-bs'], 0],
      [['--paired-ar'], 1],
      [['--paired-ar', '--confidence'], 2],
    ]
    for (const [flags, t] of runs) {
      const test = paired.tests[t]!
      const out = await withSeed(paired.seed, () => runCli(['sacrebleu', ...refs, '-i', ...systems, '-m', 'bleu', 'chrf', ...flags]))
      expect([out.code, out.stderr], flags.join(' ')).toEqual([0, ''])
      const rows = JSON.parse(out.stdout) as Array<Record<string, unknown>>
      expect(rows.map((r) => r.system)).toEqual([`Baseline: ${systems[0]}`, ...systems.slice(1)])
      for (const [metric, pTol, tol] of [
        ['BLEU', 0, 1e-9],
        ['chrF2', 2 / (test.n_samples + 1), 1e-5],
      ] as const) {
        test.results[metric]!.forEach((want, i) => {
          const got = rows[i]![metric] as PairedRow
          const label = `${flags.join(' ')} ${metric} ${want.system}`
          expect(Object.keys(got)).toEqual(['score', 'p_value', 'mean', 'ci'])
          expect(close(got.score, want.score, 1e-12), label).toBe(true)
          if (want.p_value === null) expect(got.p_value, label).toBeNull()
          else expect(Math.abs(got.p_value! - want.p_value), label).toBeLessThanOrEqual(pTol)
          for (const key of ['mean', 'ci'] as const) {
            if (want[key] === null) expect(got[key], label).toBeNull()
            else expect(close(got[key]!, want[key], tol), `${label} ${key}`).toBe(true)
          }
        })
      }
      // the JSON is indented by 4, as sacrebleu's table JSON
      expect(out.stdout.startsWith('[\n    {\n        "system": "Baseline: ')).toBe(true)
    }
  })

  it('-f text: the table with score (mean ± ci) and (p = …) cells, the legend and the signatures', async () => {
    const [refs, systems] = writeSystems()
    const test = paired.tests[0]!
    const out = await withSeed(paired.seed, () => runCli(['sacrebleu', ...refs, '-i', ...systems, '-m', 'bleu', 'chrf', '--paired-bs', '-f', 'text', '-w', '2']))
    expect([out.code, out.stderr]).toEqual([0, ''])
    const lines = out.stdout.split('\n')
    expect(lines[1]).toMatch(/^│ +System │ +BLEU \(μ ± 95% CI\) +│ +chrF2 \(μ ± 95% CI\) +│$/)
    // each system: a score line, then (for the non-baseline systems) its p-value line, centred in the cell
    const rowsText = out.stdout.slice(0, out.stdout.indexOf('╛') + 1)
    for (const [i, system] of systems.entries()) {
      const name = i === 0 ? `Baseline: ${system}` : system
      const b = test.results.BLEU![i]!
      const c = test.results.chrF2![i]!
      const cell = (r: PairedRow) => `${pythonFixed(r.score, 2)} (${pythonFixed(r.mean!, 2)} ± ${pythonFixed(r.ci!, 2)})`
      expect(rowsText).toMatch(
        new RegExp(`│ +${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} │ +${cell(b).replace(/[().+]/g, '\\$&')} +│ +${cell(c).replace(/[().+]/g, '\\$&')} +│\\n`),
      )
      if (i > 0) {
        const p = (r: PairedRow) => `\\(p = ${pythonFixed(r.p_value!, 4)}\\)${r.p_value! <= 0.05 ? '\\*' : ''}`
        expect(rowsText).toMatch(new RegExp(`│ +│ +${p(b)} +│ +${p(c)} +│\\n`))
      }
    }
    expect(out.stdout).toContain('Significance test: paired bootstrap resampling, 1000 resamples')
    expect(out.stdout).toContain(` - BLEU       ${ourVersion(test.signatures.BLEU!)}\n - chrF2      ${ourVersion(test.signatures.chrF2!)}\n`)
  })

  it('multi-system without a test: sacrebleu fancy_grid layout, and the JSON list of score strings (stdin columns)', async () => {
    const ref = files.write('grid.ref', 'the cat sat on the mat\n')
    const stdin = 'the cat sat on the mat\tx y z\n'
    const text = await runCli(['sacrebleu', ref, '-m', 'ter', 'bleu', '-f', 'text'], stdin)
    expect([text.code, text.stderr]).toEqual([0, ''])
    expect(text.stdout).toBe(
      [
        '╒══════════╤════════╤═══════╕',
        '│   System │  BLEU  │  TER  │',
        '╞══════════╪════════╪═══════╡',
        '│ System 1 │ 100.0  │  0.0  │',
        '├──────────┼────────┼───────┤',
        '│ System 2 │  0.0   │ 100.0 │',
        '╘══════════╧════════╧═══════╛',
        '',
        '-----------------',
        'Metric signatures',
        '-----------------',
        ` - BLEU       nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:${VERSION}`,
        ` - TER        nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:${VERSION}`,
        '',
      ].join('\n'),
    )
    const json = await runCli(['sacrebleu', ref, '-m', 'ter', 'bleu'], stdin)
    expect(json.stdout).toBe(
      '[\n    {\n        "system": "System 1",\n        "BLEU": "100.0",\n        "TER": "0.0"\n    },\n    {\n        "system": "System 2",\n        "BLEU": "0.0",\n        "TER": "100.0"\n    }\n]\n',
    )
  })
})

describe('rag-matchers sacrebleu: usage errors', () => {
  it('an unknown option is one line on stderr and exit 1, in every sacrebleu command', async () => {
    const ref = files.write('u.ref', 'a b c\n')
    for (const command of ['sacrebleu', 'bleu', 'chrf', 'ter']) {
      for (const option of ['--nope', '-x', '--ter-normalised']) {
        const out = await runCli([command, ref, option], 'a b c\n')
        expect([out.code, out.stdout], `${command} ${option}`).toEqual([1, ''])
        expect(out.stderr).toBe(`rag-matchers ${command}: unknown option ${option} (run 'rag-matchers ${command} --help' for the options)\n`)
      }
    }
  })

  it("refuses what sacrebleu refuses, with a one-line reason: options that do not go together, a metric it doesn't know", async () => {
    const ref = files.write('r.ref', 'a b c\n')
    const a = files.write('a.hyp', 'a b c\n')
    const b = files.write('b.hyp', 'a b d\n')
    const cases: Array<[string[], string]> = [
      [['-m', 'bleu', 'meteor'], "option -m expects bleu, chrf or ter, got 'meteor'"],
      [['-m', 'bleu', 'chrf', '-sl'], 'only one metric can be used with -sl'],
      [['-i', a, b, '-sl'], 'only one system can be scored with -sl'],
      [['-i', a, '--paired-bs'], 'the paired tests need several systems'],
      [['-i', a, b, '--confidence'], '--confidence is for one system'],
      [['-i', a, b, '--paired-bs', '--paired-ar'], '--paired-bs and --paired-ar cannot be used together'],
      [['-i', a, a], `'${a}' is given twice as a system`],
      [['-i', a, '-e', 'latin-1'], 'only UTF-8 input is supported'],
      [['-i'], 'option -i needs at least one value'],
    ]
    for (const [argv, message] of cases) {
      const out = await runCli(['sacrebleu', ref, ...argv])
      expect([out.code, out.stdout], argv.join(' ')).toEqual([1, ''])
      expect(out.stderr, argv.join(' ')).toMatch(new RegExp(`^rag-matchers sacrebleu: ${message.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}[^\\n]*\\n$`))
    }
    // a system repeated as the baseline is skipped in paired mode, as sacrebleu does
    const skipped = await runCli(['sacrebleu', ref, '-i', a, b, a, '--paired-bs', '--paired-bs-n', '10'])
    expect(skipped.code).toBe(0)
    expect((JSON.parse(skipped.stdout) as unknown[]).length).toBe(2)
    // a line-count mismatch is an input error (exit 2) naming the system
    const short = await runCli(['sacrebleu', ref, '-i', a, files.write('two.hyp', 'x\ny\n')])
    expect(short.code).toBe(2)
    expect(short.stderr).toContain('two.hyp) have 2 lines but')
  })
})
