// `rag-matchers bleu` in process: the golden sacrebleu 2.6.0 corpora and cases (fixtures/generation.json) written as
// line files, the sacrebleu text format, options and errors; plus one child-process smoke test of the built CLI.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { sentenceBleu } from '../../src/generation/bleu.js'
import { VERSION } from '../../src/version.js'
import { bleuMismatches, goldenSentenceBleu, type BleuValues } from '../parity/golden-generation.js'
import { runCli } from './run-cli.js'
import { tempFiles } from './temp-files.js'
import { caseCorpora, fileCorpora, linesFile, pythonFixed, streamsOf, writeCorpus } from './text-fixtures.js'

const files = tempFiles('rag-bleu-cli-')
afterAll(() => files.cleanup())

/** The golden variant names (generation.json `meta.calls`) as sacrebleu command-line options. */
const CORPUS_VARIANTS: Record<string, string[]> = {
  tok_none: ['-tok', 'none'],
  tok_intl: ['-tok', 'intl'],
  tok_char: ['--tokenize', 'char'],
  lowercase: ['-lc'],
  effective_order: ['-e'],
  smooth_none: ['-s', 'none'],
  smooth_floor: ['-s', 'floor'],
  smooth_add_k: ['--smooth-method=add-k'],
}

/** sacrebleu's JSON of a BLEU score: the values, the signature, its fields, the verbose part. */
interface BleuJson extends BleuValues {
  name: string
  signature: string
  verbose_score: string
  ratio: number
  [key: string]: unknown
}

describe('rag-matchers bleu: golden sacrebleu 2.6.0 corpora', () => {
  it('uses the 8 golden corpora that can be files (no null reference, no newline in a segment)', () => {
    expect(fileCorpora.map((c) => c.id)).toEqual(['qa6', 'multiref10', 'with_empty_hyps', 'unicode8', 'identical5', 'short', 'perturbed20', 'seed1'])
  })

  it('--json equals corpus_bleu and every variant at 1e-9 (counts, totals, lengths exactly)', async () => {
    const bad: string[] = []
    const tally = { values: 0 }
    let runs = 0
    for (const corpus of fileCorpora) {
      const [hyp, refs] = writeCorpus(files, corpus.id, corpus.hypotheses, corpus.references)
      const variants: Array<[string, string[], BleuValues]> = [
        ['default', [], corpus.corpus_bleu],
        ...Object.entries(CORPUS_VARIANTS).map(([name, flags]): [string, string[], BleuValues] => [name, flags, corpus.corpus_bleu_variants[name] as BleuValues]),
      ]
      for (const [name, flags, want] of variants) {
        const out = await runCli(['bleu', ...refs, '-i', hyp, '--json', ...flags])
        runs++
        if (out.code !== 0) {
          bad.push(`${corpus.id} ${name}: exit ${out.code} ${out.stderr}`)
          continue
        }
        bad.push(...bleuMismatches(`${corpus.id} ${name}`, JSON.parse(out.stdout) as BleuJson, want, tally))
      }
    }
    console.log(`bleu CLI parity: ${runs} corpus runs, ${tally.values - bad.length}/${tally.values} values equal to sacrebleu 2.6.0 (1e-9 relative)`)
    expect(bad).toEqual([])
    expect(runs).toBe(8 * 9)
  })

  it('--json carries the signature, its fields as sacrebleu lists them, and the verbose part', async () => {
    const corpus = fileCorpora.find((c) => c.id === 'multiref10')!
    const [hyp, refs] = writeCorpus(files, 'sig', corpus.hypotheses, corpus.references)
    const json = JSON.parse((await runCli(['bleu', ...refs, '-i', hyp, '--json', '-tok', 'intl', '-s', 'floor'])).stdout) as BleuJson
    expect(json.name).toBe('BLEU')
    expect(json.signature).toBe(`BLEU|nrefs:2|case:mixed|eff:no|tok:intl|smooth:floor[0.10]|version:${VERSION}`)
    expect([json.nrefs, json.case, json.eff, json.tok, json.smooth, json.version]).toEqual(['2', 'mixed', 'no', 'intl', 'floor[0.10]', VERSION])
    expect(json.ratio).toBe(json.sys_len / json.ref_len)
    expect(json.verbose_score).toMatch(/^\d+\.\d\/\d+\.\d\/\d+\.\d\/\d+\.\d \(BP = \d\.\d{3} ratio = \d+\.\d{3} hyp_len = \d+ ref_len = \d+\)$/)
  })

  it('-f text prints the golden numbers rounded as sacrebleu prints them', async () => {
    const line = /^(\S+) = (\d+\.\d) (\d+\.\d)\/(\d+\.\d)\/(\d+\.\d)\/(\d+\.\d) \(BP = (\d\.\d{3}) ratio = (\d+\.\d{3}) hyp_len = (\d+) ref_len = (\d+)\)\n$/
    for (const corpus of fileCorpora) {
      const [hyp, refs] = writeCorpus(files, `text-${corpus.id}`, corpus.hypotheses, corpus.references)
      const out = await runCli(['bleu', ...refs, '-f', 'text'], readFileSync(hyp))
      expect([out.code, out.stderr]).toEqual([0, ''])
      const m = line.exec(out.stdout)
      expect(m, out.stdout).not.toBeNull()
      const want = corpus.corpus_bleu
      expect(m!.slice(1)).toEqual([
        `BLEU|nrefs:${refs.length}|case:mixed|eff:no|tok:13a|smooth:exp|version:${VERSION}`,
        pythonFixed(want.score, 1),
        ...want.precisions.map((p) => pythonFixed(p, 1)),
        pythonFixed(want.bp, 3),
        pythonFixed(want.sys_len / want.ref_len, 3),
        String(want.sys_len),
        String(want.ref_len),
      ])
    }
  })

  it('-w sets the decimals of the score; -b prints the score alone', async () => {
    const corpus = fileCorpora.find((c) => c.id === 'qa6')!
    const [hyp, refs] = writeCorpus(files, 'width', corpus.hypotheses, corpus.references)
    const w4 = await runCli(['bleu', ...refs, '-i', hyp, '-w', '4', '-f', 'text'])
    expect(w4.stdout.startsWith(`BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:${VERSION} = ${pythonFixed(corpus.corpus_bleu.score, 4)} `)).toBe(true)
    expect((await runCli(['bleu', ...refs, '-i', hyp, '-w3', '-b'])).stdout).toBe(`${pythonFixed(corpus.corpus_bleu.score, 3)}\n`)
    expect((await runCli(['bleu', ...refs, '-i', hyp, '--width=0', '--score-only'])).stdout).toBe(`${pythonFixed(corpus.corpus_bleu.score, 0)}\n`)
  })

  it('rounds half to even on exact binary ties, as Python (JS toFixed would round them up)', async () => {
    // ratio 17/16 = 1.0625 exactly: Python '1.062'
    const tie = await runCli([
      'bleu',
      files.write('tie.ref', 'a b c d e f g h i j k l m n o p\n'),
      '-i',
      files.write('tie.hyp', 'a b c d e f g h i j k l m n o p q\n'),
      '-f',
      'text',
    ])
    expect(tie.stdout).toContain('ratio = 1.062 hyp_len = 17 ref_len = 16)')
    // unigram precision 100·1/16 = 6.25 exactly: Python '6.2'
    const words = Array.from({ length: 15 }, (_, i) => `w${i}`).join(' ')
    const prec = await runCli(['bleu', files.write('prec.ref', 'a\n'), '-i', files.write('prec.hyp', `a ${words}\n`), '-f', 'text'])
    expect(prec.stdout).toMatch(/ = \d+\.\d 6\.2\//)
  })
})

describe('rag-matchers bleu -sl: one line per segment, equal to sentence_bleu', () => {
  it('-sl --json equals the golden sentence_bleu of every case and variant at 1e-9', async () => {
    // sacrebleu's CLI forces effective order in sentence mode, so the no_effective_order variant is not reachable
    const variants: Record<string, string[]> = {
      tok_none: ['-tok', 'none'],
      tok_intl: ['-tok', 'intl'],
      tok_char: ['-tok', 'char'],
      lowercase: ['-lc'],
      smooth_none: ['-s', 'none'],
      smooth_floor: ['-s', 'floor'],
      smooth_add_k: ['-s', 'add-k'],
    }
    const bad: string[] = []
    const tally = { values: 0 }
    let segments = 0
    for (const { nrefs, cases } of caseCorpora()) {
      const [hyp, refs] = writeCorpus(
        files,
        `sl${nrefs}`,
        cases.map((c) => c.hypothesis),
        streamsOf(cases, nrefs),
      )
      for (const [name, flags] of [['default', []] as [string, string[]], ...Object.entries(variants)]) {
        const out = await runCli(['bleu', '-sl', '--json', ...refs, '-i', hyp, ...flags])
        expect([out.code, out.stderr]).toEqual([0, ''])
        const lines = out.stdout.split('\n')
        expect(lines.pop()).toBe('')
        expect(lines).toHaveLength(cases.length)
        cases.forEach((c, i) => {
          const want = name === 'default' ? goldenSentenceBleu(c) : (c.sacrebleu.bleu_variants[name] as BleuValues)
          const got = JSON.parse(lines[i] as string) as BleuJson
          if (got.eff !== 'yes' || got.nrefs !== String(nrefs)) bad.push(`${c.id} ${name}: signature ${got.signature}`)
          bad.push(...bleuMismatches(`${c.id} ${name}`, got, want, tally))
          segments++
        })
      }
    }
    console.log(`bleu CLI -sl parity: ${segments} segment scores, ${tally.values - bad.length}/${tally.values} values equal to sacrebleu 2.6.0 sentence_bleu (1e-9 relative)`)
    expect(bad).toEqual([])
    expect(segments).toBe(283 * 8)
  })

  it('the text lines are sacrebleu Score.format lines of sentenceBleu', async () => {
    const corpus = fileCorpora.find((c) => c.id === 'multiref10')!
    const [hyp, refs] = writeCorpus(files, 'sltext', corpus.hypotheses, corpus.references)
    const out = await runCli(['bleu', '--sentence-level', ...refs, '-i', hyp, '-w', '2'])
    const lines = out.stdout.split('\n').slice(0, -1)
    expect(lines).toHaveLength(corpus.hypotheses.length)
    corpus.hypotheses.forEach((h, i) => {
      const score = sentenceBleu(
        h,
        corpus.references.map((s) => s[i] as string),
      )
      const d = score.details
      expect(score.signature).toBe(`BLEU|nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:${VERSION}`)
      expect(lines[i]).toBe(
        `${score.signature} = ${pythonFixed(score.value, 2)} ${d.precisions.map((p) => pythonFixed(p, 1)).join('/')} (BP = ${pythonFixed(d.bp, 3)} ratio = ${pythonFixed(d.ratio, 3)} hyp_len = ${d.sysLen} ref_len = ${d.refLen})`,
      )
    })
  })
})

describe('rag-matchers bleu: options and errors', () => {
  it('warns (stderr) about 100+ hypotheses ending in " ." unless --force, like sacrebleu', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `sentence number ${i} .`)
    const hyp = files.write('tok.hyp', linesFile(lines))
    const ref = files.write('tok.ref', linesFile(lines))
    const warned = await runCli(['bleu', ref, '-i', hyp])
    expect(warned.code).toBe(0)
    expect(warned.stderr).toContain("100 lines end in a tokenized period (' .')")
    const forced = await runCli(['bleu', ref, '-i', hyp, '--force'])
    expect([forced.code, forced.stderr, forced.stdout]).toEqual([0, '', warned.stdout])
    const fewer = await runCli(['bleu', files.write('tok99.ref', linesFile(lines.slice(1))), '-i', files.write('tok99.hyp', linesFile(lines.slice(1)))])
    expect(fewer.stderr).toBe('')
  })

  it('exit 1 for usage errors: unknown option, bad values, no reference file, two stdins', async () => {
    const ref = files.write('u.ref', 'a b c\n')
    const hyp = files.write('u.hyp', 'a b c\n')
    const cases: Array<[string[], string]> = [
      [['--nope', ref, '-i', hyp], 'unknown option --nope'],
      [['-x', ref, '-i', hyp], 'unknown option -x'],
      [['-tok', 'moses', ref, '-i', hyp], "option -tok expects one of 13a, intl, char, none, zh, got 'moses'"],
      [['--smooth-method', 'add-one', ref, '-i', hyp], "option --smooth-method expects one of exp, floor, add-k, none, got 'add-one'"],
      [['-sv', '-1', ref, '-i', hyp], "option -sv expects a number ≥ 0, got '-1'"],
      [['-sv', 'abc', ref, '-i', hyp], "option -sv expects a number ≥ 0, got 'abc'"],
      [['-w', '1.5', ref, '-i', hyp], "option -w expects an integer from 0 to 20, got '1.5'"],
      [['-w', '-1', ref, '-i', hyp], "option -w expects an integer from 0 to 20, got '-1'"],
      [['--force=yes', ref, '-i', hyp], "option --force takes no value, got 'yes'"],
      [[ref, '-i'], 'option -i needs a value'],
      [['-i', hyp], 'expected at least one reference file'],
      [['-', '-i', '-'], "only one file can be '-'"],
    ]
    for (const [argv, message] of cases) {
      const out = await runCli(['bleu', ...argv], 'x\n')
      expect([out.code, out.stdout], argv.join(' ')).toEqual([1, ''])
      expect(out.stderr, argv.join(' ')).toContain(`rag-matchers bleu: ${message}`)
      // one line: the message and where the options are
      expect(out.stderr).toMatch(/^rag-matchers bleu: [^\n]* \(run 'rag-matchers bleu --help' for the options\)\n$/)
    }
  })

  it('exit 2 for input errors: missing file, line-count mismatch (naming files and counts), no segments', async () => {
    const ref = files.write('e.ref', 'a b c\nd e f\n')
    const missing = files.path('nope.txt')
    expect(await runCli(['bleu', ref, '-i', missing])).toEqual({ code: 2, stdout: '', stderr: `rag-matchers bleu: cannot read '${missing}': ENOENT (open)\n` })
    expect((await runCli(['bleu', missing], 'a\n')).stderr).toBe(`rag-matchers bleu: cannot read '${missing}': ENOENT (open)\n`)

    const hyp3 = files.write('e3.hyp', 'a\nb\nc\n')
    const ref3 = files.write('e3.ref', 'a\nb\nc\n')
    const out = await runCli(['bleu', ref, ref3, files.write('e1.ref', 'x\n'), '-i', hyp3])
    expect(out.code).toBe(2)
    expect(out.stderr).toBe(
      `rag-matchers bleu: the hypotheses (${hyp3}) have 3 lines but ${ref} has 2 lines, ${files.path('e1.ref')} has 1 line; every reference file needs one line per hypothesis line\n`,
    )
    const fromStdin = await runCli(['bleu', ref], 'only one line\n')
    expect(fromStdin.stderr).toContain('the hypotheses (<stdin>) have 1 line but')

    const empty = await runCli(['bleu', files.write('empty.ref', '')], '')
    expect(empty).toEqual({ code: 2, stdout: '', stderr: 'rag-matchers bleu: <stdin> has no lines: there is no segment to score\n' })
  })

  it('--help prints the options and exits 0', async () => {
    const out = await runCli(['bleu', '--help'])
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('Usage: rag-matchers bleu REF [REF...] [-i HYP] [options]')
    expect(out.stdout).toContain('-tok, --tokenize {13a,intl,zh,char,none}')
  })
})

// The built CLI as a real process (`npm run build` makes dist/cli/main.js). Skipped when there is no build or when
// the build is older than the command's sources (it would not know `bleu` yet).
const built = resolve(__dirname, '../../dist/cli/main.js')
const sources = ['main.ts', 'bleu.ts', 'text-input.ts', 'metric-command.ts', 'sacrebleu-output.ts', 'sacrebleu-metrics.ts', 'sacrebleu.ts'].map((f) =>
  resolve(__dirname, '../../cli', f),
)
const fresh = existsSync(built) && sources.every((s) => statSync(s).mtimeMs <= statSync(built).mtimeMs)
if (!fresh) console.warn(`skipping the child-process smoke test of rag-matchers bleu: ${built} is missing or older than cli/*.ts (run \`npm run build\`)`)

describe('rag-matchers bleu as a child process', () => {
  it.skipIf(!fresh)('node dist/cli/main.js bleu REF < HYP prints the corpus line; a missing file exits 2', () => {
    const corpus = fileCorpora.find((c) => c.id === 'qa6')!
    const [hyp, refs] = writeCorpus(files, 'child', corpus.hypotheses, corpus.references)
    const ok = spawnSync(process.execPath, [built, 'bleu', ...refs, '-f', 'text'], { input: readFileSync(hyp), encoding: 'utf8' })
    expect([ok.status, ok.stderr]).toEqual([0, ''])
    expect(ok.stdout).toMatch(
      new RegExp(
        `^BLEU\\|nrefs:1\\|case:mixed\\|eff:no\\|tok:13a\\|smooth:exp\\|version:${VERSION.replace(/\./g, '\\.')} = ${pythonFixed(corpus.corpus_bleu.score, 1).replace('.', '\\.')} `,
      ),
    )
    const missing = spawnSync(process.execPath, [built, 'bleu', files.path('absent.ref')], { input: 'a\n', encoding: 'utf8' })
    expect(missing.status).toBe(2)
    // the sacrebleu entry, JSON by default: one object per metric
    const multi = spawnSync(process.execPath, [built, 'sacrebleu', ...refs, '-i', hyp, '-m', 'bleu', 'chrf', 'ter'], { encoding: 'utf8' })
    expect([multi.status, multi.stderr]).toEqual([0, ''])
    expect((JSON.parse(multi.stdout) as Array<{ name: string }>).map((o) => o.name)).toEqual(['BLEU', 'chrF2', 'TER'])
  })
})
