// `rag-matchers meteor` in process: the golden NLTK 3.8 METEOR cases (fixtures/generation.json, WordNet 3.0) written
// as line files, per segment (-sl) and as the mean over segments; options and errors.
import { meteorScore } from '../../src/generation/meteor.js'
import { VERSION } from '../../src/version.js'
import { close } from '../parity/golden-generation.js'
import { runCli } from './run-cli.js'
import { tempFiles } from './temp-files.js'
import { caseCorpora, pythonFixed, streamsOf, writeCorpus } from './text-fixtures.js'

const files = tempFiles('rag-meteor-cli-')
afterAll(() => files.cleanup())

const corpora = caseCorpora()

describe('rag-matchers meteor: golden NLTK 3.8 cases', () => {
  it('-sl --json equals meteor_score of every case at 1e-9; the corpus value is their mean', async () => {
    const bad: string[] = []
    let compared = 0
    for (const { nrefs, cases } of corpora) {
      const [hyp, refs] = writeCorpus(
        files,
        `m${nrefs}`,
        cases.map((c) => c.hypothesis),
        streamsOf(cases, nrefs),
      )
      const sl = await runCli(['meteor', '-sl', '--json', ...refs, '-i', hyp])
      expect([sl.code, sl.stderr]).toEqual([0, ''])
      const lines = sl.stdout.split('\n').slice(0, -1)
      expect(lines).toHaveLength(cases.length)
      let sum = 0
      cases.forEach((c, i) => {
        const got = JSON.parse(lines[i] as string) as { score: number; signature: string }
        compared++
        if (!close(got.score, c.meteor)) bad.push(`${c.id}: ${got.score} vs ${c.meteor}`)
        if (got.signature !== `METEOR|nrefs:${nrefs}|pre:lower|stem:porter|syn:wordnet-3.0|alpha:0.9|beta:3|gamma:0.5|version:${VERSION}`)
          bad.push(`${c.id}: ${got.signature}`)
        sum += c.meteor
      })
      const corpus = JSON.parse((await runCli(['meteor', '--json', ...refs, '-i', hyp])).stdout) as { score: number; segments: number; nrefs: number; signature: string }
      compared++
      if (!close(corpus.score, sum / cases.length)) bad.push(`mean nrefs ${nrefs}: ${corpus.score} vs ${sum / cases.length}`)
      expect([corpus.segments, corpus.nrefs]).toEqual([cases.length, nrefs])
      expect(corpus.signature).toBe(`METEOR|nrefs:${nrefs}|pre:lower|stem:porter|syn:wordnet-3.0|alpha:0.9|beta:3|gamma:0.5|agg:mean|version:${VERSION}`)
    }
    console.log(`meteor CLI parity: ${compared - bad.length}/${compared} values (283 case scores and 4 means) equal to NLTK 3.8 (1e-9 relative)`)
    expect(bad).toEqual([])
    expect(compared).toBe(283 + corpora.length)
  })

  it('prints a header saying the corpus value is a mean, then the signature line; -w, -b and -sl', async () => {
    const { cases } = corpora[0]!
    const some = cases.slice(0, 10)
    const [hyp, refs] = writeCorpus(
      files,
      'text',
      some.map((c) => c.hypothesis),
      streamsOf(some, 1),
    )
    const mean = some.reduce((s, c) => s + c.meteor, 0) / some.length
    expect(await runCli(['meteor', ...refs, '-i', hyp])).toEqual({
      code: 0,
      stdout:
        '# METEOR: mean over 10 segments of the per-segment METEOR (NLTK 3.8 meteor_score: max over the references)\n' +
        `METEOR|nrefs:1|pre:lower|stem:porter|syn:wordnet-3.0|alpha:0.9|beta:3|gamma:0.5|agg:mean|version:${VERSION} = ${pythonFixed(mean, 4)}\n`,
      stderr: '',
    })
    expect((await runCli(['meteor', ...refs, '-i', hyp, '-b', '-w', '6'])).stdout).toBe(`${pythonFixed(mean, 6)}\n`)
    expect((await runCli(['meteor', ...refs, '-i', hyp, '-sl', '-b'])).stdout).toBe(some.map((c) => `${pythonFixed(c.meteor, 4)}\n`).join(''))
  })

  it('--alpha, --beta, --gamma, --no-synonyms and --no-stemmer reach meteorScore', async () => {
    const { cases } = corpora[0]!
    const some = cases.slice(0, 40)
    const [hyp, refs] = writeCorpus(
      files,
      'opts',
      some.map((c) => c.hypothesis),
      streamsOf(some, 1),
    )
    const options = { alpha: 0.5, beta: 2, gamma: 0.25, synonyms: false, stemmer: false }
    const out = await runCli(['meteor', ...refs, '-i', hyp, '-sl', '--json', '--alpha', '0.5', '--beta=2', '--gamma', '.25', '--no-synonyms', '--no-stemmer'])
    expect([out.code, out.stderr]).toEqual([0, ''])
    const got = out.stdout
      .split('\n')
      .slice(0, -1)
      .map((l) => (JSON.parse(l) as { score: number }).score)
    expect(got).toEqual(some.map((c) => meteorScore(c.hypothesis, [c.references[0] as string], options).value))
    // the options change the numbers (otherwise the comparison above would prove nothing)
    expect(got).not.toEqual(some.map((c) => c.meteor))
  })

  it('exit 1 for bad parameter values, exit 2 for a missing WordNet file', async () => {
    const ref = files.write('u.ref', 'a b c\n')
    const cases: Array<[string[], string]> = [
      [['--alpha', '1.5'], "option --alpha expects a number from 0 to 1, got '1.5'"],
      [['--beta', '-1'], "option --beta expects a number ≥ 0, got '-1'"],
      [['--gamma', 'half'], "option --gamma expects a number from 0 to 1, got 'half'"],
      [['--delta', '1'], 'unknown option --delta'],
    ]
    for (const [argv, message] of cases) {
      const out = await runCli(['meteor', ref, ...argv], 'a b\n')
      expect([out.code, out.stdout], argv.join(' ')).toEqual([1, ''])
      expect(out.stderr).toContain(`rag-matchers meteor: ${message}`)
    }
    const missing = files.path('wordnet.json.gz')
    const out = await runCli(['meteor', ref, '--wordnet', missing], 'a b c\n')
    expect([out.code, out.stdout]).toEqual([2, ''])
    expect(out.stderr).toContain(`rag-matchers meteor: cannot load the WordNet data: ENOENT`)
    expect(out.stderr).toContain('Give the file with --wordnet FILE, or use --no-synonyms.')
    // the default data is back for the next run
    expect((await runCli(['meteor', ref, '-b'], 'a b c\n')).stdout).toBe(`${pythonFixed(meteorScore('a b c', 'a b c').value, 4)}\n`)
  })
})
