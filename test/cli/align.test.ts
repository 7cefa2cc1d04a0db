// `rag-matchers align` (issue #30): the judge's verdicts in a JSONL file against people's labels, in
// process with captured output. Numbers come from the core (humanAlignment over the same records).
import { join } from 'node:path'
import { humanAlignment } from '../../src/agreement/human-alignment.js'
import { loadRatings } from '../../src/agreement/ratings.js'
import { EXIT } from '../../cli/main.js'
import { runCli } from './run-cli.js'
import { tempFiles } from './temp-files.js'

const files = tempFiles('rag-matchers-align-')
afterAll(() => files.cleanup())
const RATINGS = join(__dirname, '..', '..', 'examples', 'human-eval', 'ratings.jsonl')
const jsonl = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'

const LABELS = [
  ['q1', 5, 4],
  ['q2', 1, 2],
  ['q3', 4, 4],
  ['q4', 2, 1],
].flatMap(([item, a, b]) => [
  { item, rater: 'ann', score: a },
  { item, rater: 'bob', score: b },
])
const JUDGED = [
  { item: 'q1', score: 4, reason: 'Right.' },
  { item: 'q2', score: 5, reason: 'It states a number, "41.0".' },
  { item: 'q3', score: 4 },
  { item: 'q4', score: 1 },
]

describe('rag-matchers align', () => {
  it('prints the comparison and exits 0 when every bar is met, 4 when one is not', async () => {
    const labels = files.write('labels.jsonl', jsonl(LABELS))
    const judged = files.write('judged.jsonl', jsonl(JUDGED))
    const kappa = humanAlignment(JUDGED, LABELS).value
    const ok = await runCli(['align', labels, judged, '--min-kappa', String(kappa)])
    expect(ok.code).toBe(EXIT.ok)
    expect(ok.stdout).toContain(`Cohen's kappa (linear weights) ${kappa.toFixed(4)}`)
    expect(ok.stdout).toContain('confusion matrix (rows: judge, columns: people')
    expect(ok.stdout).toMatch(/q2\s+judge 5\s+people 1 \(ann=1, bob=2\)\s+— "It states a number, \\"41\.0\\"\."/)
    expect(ok.stdout).toContain('verdict: every bar met')
    const below = await runCli(['align', labels, judged, `--min-kappa=${kappa + 0.01}`])
    expect(below.code).toBe(EXIT.evaluation)
    expect(below.stdout).toContain(`verdict: Cohen's kappa ${kappa.toFixed(4)} is below the bar ${(kappa + 0.01).toFixed(4)}`)
  })

  it('--format json carries the core’s numbers', async () => {
    const labels = files.write('labels-json.jsonl', jsonl(LABELS))
    const judged = files.write('judged-json.jsonl', jsonl(JUDGED))
    const core = humanAlignment(JUDGED, LABELS)
    const out = await runCli(['align', labels, judged, '--format', 'json', '--min-spearman', '0'])
    const json = JSON.parse(out.stdout) as Record<string, any>
    expect(json.kappa.value).toBe(core.value)
    expect(json.spearman.value).toBe(core.details.spearman?.value)
    expect(json.disagreements.map((d: { item: string }) => d.item)).toEqual(core.details.disagreements.map((d) => d.item))
    expect(json.signature).toBe(core.signature)
  })

  it('reads the example’s committed ratings (a dimension to choose)', async () => {
    const ratings = await loadRatings(RATINGS)
    const items = [...new Set(ratings.scores.map((s) => s.item))]
    const judged = files.write('example-judged.jsonl', jsonl(items.map((item) => ({ item, score: item === 'bleu-en-de' ? 1 : 5 }))))
    const noDimension = await runCli(['align', RATINGS, judged])
    expect(noDimension.code).toBe(EXIT.input)
    expect(noDimension.stderr).toContain('the human labels have 2 dimensions (correctness, helpfulness)')
    const out = await runCli(['align', RATINGS, judged, '--dimension', 'correctness', '--min-kappa', '0.5'])
    expect(out.stdout).toContain('8 items compared (ratings of correctness)')
    expect(out.stdout).toContain('raters: ana, ben, chen')
  })

  it('bad input exits 2 with one line naming the problem; never a number', async () => {
    const judged = files.write('judged-bad.jsonl', jsonl(JUDGED))
    const cases: Array<[string, object[], string]> = [
      // loadRatings names the file, the line and the field
      ['no-rater.jsonl', [...LABELS, { item: 'q1', score: 3 }], 'no-rater.jsonl line 9, field `rater`: expected a non-empty string or a number'],
      ['one-rater.jsonl', LABELS.filter((l) => l.rater === 'ann'), 'human agreement needs at least two raters'],
      [
        'extra-item.jsonl',
        [...LABELS, { item: 'q9', rater: 'ann', score: 3 }, { item: 'q9', rater: 'bob', score: 3 }],
        'people labelled 1 item the judge did not judge ("q9")',
      ],
      ['other-scale.jsonl', LABELS.map((l) => ({ ...l, score: (l.score as number) >= 3 })), "the judge's scores are numbers and the people's are booleans"],
    ]
    for (const [name, rows, problem] of cases) {
      const out = await runCli(['align', files.write(name, jsonl(rows)), judged, '--min-kappa', '0.5'])
      expect(out.code).toBe(EXIT.input)
      expect(out.stderr).toContain(problem)
      expect(out.stdout).toBe('')
    }
    const missing = await runCli(['align', files.path('nope.jsonl'), judged])
    expect(missing.code).toBe(EXIT.input)
    expect(missing.stderr).toContain("cannot read '")
    const notJson = await runCli(['align', files.write('l.jsonl', jsonl(LABELS)), files.write('j.jsonl', '{"item": "q1", "score": 4}\nnot json\n')])
    expect(notJson.code).toBe(EXIT.input)
    expect(notJson.stderr).toContain('line 2')
  })

  it('usage errors exit 1', async () => {
    expect((await runCli(['align', 'only-one.jsonl'])).code).toBe(EXIT.usage)
    expect((await runCli(['align', 'a', 'b', '--min-kappa', '2'])).stderr).toContain('--min-kappa needs a number from -1 to 1, got "2"')
    expect((await runCli(['align', 'a', 'b', '--bogus'])).stderr).toContain('unknown option --bogus')
    const help = await runCli(['align', '--help'])
    expect(help.code).toBe(EXIT.ok)
    expect(help.stdout).toContain('usage: rag-matchers align')
  })
})
