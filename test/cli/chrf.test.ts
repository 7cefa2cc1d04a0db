// `rag-matchers chrf` in process: the golden sacrebleu 2.6.0 corpora and cases (fixtures/generation.json) written as
// line files, the sacrebleu text format, options and errors.
import { sentenceChrf } from '../../src/generation/chrf.js'
import { pyRstrip } from '../../src/text/python-string.js'
import { VERSION } from '../../src/version.js'
import { close, type GoldenCase } from '../parity/golden-generation.js'
import { runCli } from './run-cli.js'
import { tempFiles } from './temp-files.js'
import { caseCorpora, fileCorpora, pythonFixed, streamsOf, writeCorpus } from './text-fixtures.js'

const files = tempFiles('rag-chrf-cli-')
afterAll(() => files.cleanup())

interface ChrfJson {
  name: string
  score: number
  signature: string
  stats: number[]
  [key: string]: unknown
}

describe('rag-matchers chrf: golden sacrebleu 2.6.0 corpora', () => {
  it('--json equals corpus_chrf, corpus_chrfpp and the eps-smoothing variants at 1e-9', async () => {
    const runs: Array<[string, string[], (c: (typeof fileCorpora)[number]) => number]> = [
      ['chrF2', [], (c) => c.corpus_chrf],
      ['chrF2++', ['-cw', '2'], (c) => c.corpus_chrfpp],
      ['chrF2', ['--chrf-eps-smoothing'], (c) => c.corpus_chrf_variants.chrf_eps_smoothing as number],
      ['chrF2++', ['--chrf-word-order=2', '--chrf-eps-smoothing'], (c) => c.corpus_chrf_variants.chrfpp_eps_smoothing as number],
    ]
    const bad: string[] = []
    let compared = 0
    for (const corpus of fileCorpora) {
      const [hyp, refs] = writeCorpus(files, corpus.id, corpus.hypotheses, corpus.references)
      for (const [name, flags, want] of runs) {
        const out = await runCli(['chrf', ...refs, '-i', hyp, '--json', ...flags])
        expect([out.code, out.stderr]).toEqual([0, ''])
        const json = JSON.parse(out.stdout) as ChrfJson
        compared++
        if (json.name !== name || !close(json.score, want(corpus))) bad.push(`${corpus.id} ${flags.join(' ')}: ${json.name} ${json.score} vs ${want(corpus)}`)
      }
    }
    console.log(`chrf CLI parity: ${compared - bad.length}/${compared} corpus chrF/chrF++ values equal to sacrebleu 2.6.0 (1e-9 relative)`)
    expect(bad).toEqual([])
    expect(compared).toBe(8 * 4)
  })

  it('-f text prints the signature and the golden score with 1 decimal', async () => {
    for (const corpus of fileCorpora) {
      const [hyp, refs] = writeCorpus(files, `text-${corpus.id}`, corpus.hypotheses, corpus.references)
      const n = refs.length
      expect(await runCli(['chrf', ...refs, '-i', hyp, '-f', 'text'])).toEqual({
        code: 0,
        stdout: `chrF2|nrefs:${n}|case:mixed|eff:yes|nc:6|nw:0|space:no|version:${VERSION} = ${pythonFixed(corpus.corpus_chrf, 1)}\n`,
        stderr: '',
      })
      expect((await runCli(['chrf', ...refs, '-i', hyp, '-cw', '2', '--chrf-eps-smoothing', '-w', '3', '--format=text'])).stdout).toBe(
        `chrF2++|nrefs:${n}|case:mixed|eff:no|nc:6|nw:2|space:no|version:${VERSION} = ${pythonFixed(corpus.corpus_chrf_variants.chrfpp_eps_smoothing as number, 3)}\n`,
      )
    }
  })

  it('--json lists the signature fields and the summed statistics', async () => {
    const corpus = fileCorpora.find((c) => c.id === 'qa6')!
    const [hyp, refs] = writeCorpus(files, 'json', corpus.hypotheses, corpus.references)
    const json = JSON.parse((await runCli(['chrf', ...refs, '-i', hyp, '--json', '--chrf-beta', '3', '-cc', '4', '--chrf-whitespace', '-lc'])).stdout) as ChrfJson
    expect(json.signature).toBe(`chrF3|nrefs:1|case:lc|eff:yes|nc:4|nw:0|space:yes|version:${VERSION}`)
    expect([json.nrefs, json.case, json.eff, json.nc, json.nw, json.space, json.version]).toEqual(['1', 'lc', 'yes', '4', '0', 'yes', VERSION])
    expect(json.stats).toHaveLength(3 * 4)
  })
})

describe('rag-matchers chrf -sl: one line per segment, equal to sentence_chrf', () => {
  it('-sl --json equals the golden sentence_chrf, chrF++ and variants of every case at 1e-9', async () => {
    const endsWithSpace = (c: GoldenCase) => [c.hypothesis, ...c.references].some((s) => pyRstrip(s) !== s)
    const runs: Array<[string, string[], (c: GoldenCase) => number]> = [
      ['chrf', [], (c) => c.sacrebleu.chrf],
      ['chrfpp', ['-cw', '2'], (c) => c.sacrebleu.chrfpp],
      ['chrf_eps_smoothing', ['--chrf-eps-smoothing'], (c) => c.sacrebleu.chrf_variants.chrf_eps_smoothing as number],
      ['chrfpp_eps_smoothing', ['-cw', '2', '--chrf-eps-smoothing'], (c) => c.sacrebleu.chrf_variants.chrfpp_eps_smoothing as number],
      ['chrf_lowercase', ['--chrf-lowercase'], (c) => c.sacrebleu.chrf_variants.chrf_lowercase as number],
      ['chrf_keep_whitespace', ['--chrf-whitespace'], (c) => c.sacrebleu.chrf_variants.chrf_keep_whitespace as number],
    ]
    const bad: string[] = []
    let compared = 0
    let rstripped = 0
    for (const { nrefs, cases } of caseCorpora()) {
      const [hyp, refs] = writeCorpus(
        files,
        `sl${nrefs}`,
        cases.map((c) => c.hypothesis),
        streamsOf(cases, nrefs),
      )
      for (const [name, flags, want] of runs) {
        const out = await runCli(['chrf', '-sl', '--json', ...refs, '-i', hyp, ...flags])
        expect([out.code, out.stderr]).toEqual([0, ''])
        const lines = out.stdout.split('\n').slice(0, -1)
        expect(lines).toHaveLength(cases.length)
        cases.forEach((c, i) => {
          const got = (JSON.parse(lines[i] as string) as ChrfJson).score
          if (name === 'chrf_keep_whitespace' && endsWithSpace(c)) {
            // sacrebleu's CLI rstrips every line, the golden value is the API's on the raw text: compare with the
            // core on the rstripped text instead
            rstripped++
            const core = sentenceChrf(pyRstrip(c.hypothesis), c.references.map(pyRstrip), { keepWhitespace: true }).value
            if (got !== core) bad.push(`${c.id} ${name} (rstripped): ${got} vs ${core}`)
            return
          }
          compared++
          if (!close(got, want(c))) bad.push(`${c.id} ${name}: ${got} vs ${want(c)}`)
        })
      }
    }
    console.log(
      `chrf CLI -sl parity: ${compared - bad.length}/${compared} sentence chrF values equal to sacrebleu 2.6.0 (1e-9 relative); ${rstripped} keep-whitespace segments with trailing whitespace checked against the rstripped text`,
    )
    expect(bad).toEqual([])
    expect(compared + rstripped).toBe(283 * 6)
  })
})

describe('rag-matchers chrf: options and errors', () => {
  it('exit 1 for bad option values', async () => {
    const ref = files.write('u.ref', 'a b c\n')
    const hyp = files.write('u.hyp', 'a b c\n')
    const cases: Array<[string[], string]> = [
      [['--chrf-beta', '1.5'], "option --chrf-beta expects an integer from 0 to 1000, got '1.5'"],
      [['-cc', 'six'], "option -cc expects an integer from 0 to 64, got 'six'"],
      [['--chrf-word-order', '65'], "option --chrf-word-order expects an integer from 0 to 64, got '65'"],
      [['-cc', '0', '-cw', '0'], 'the character and word n-gram orders cannot both be 0'],
      [['-tok', '13a'], 'unknown option -tok'],
    ]
    for (const [argv, message] of cases) {
      const out = await runCli(['chrf', ref, '-i', hyp, ...argv])
      expect([out.code, out.stdout], argv.join(' ')).toEqual([1, ''])
      expect(out.stderr).toContain(`rag-matchers chrf: ${message}`)
    }
  })

  it('exit 2 for a line-count mismatch', async () => {
    const out = await runCli(['chrf', files.write('m.ref', 'a\nb\n')], 'a\n')
    expect(out.code).toBe(2)
    expect(out.stderr).toContain(`the hypotheses (<stdin>) have 1 line but ${files.path('m.ref')} has 2 lines`)
  })
})
