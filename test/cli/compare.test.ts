// `rag-matchers compare base.json new.json`: cases paired by id across two rag-report.json files, the
// same comparison (pairing, tests, status words) as the baseline gate.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compareRuns } from '../../src/eval-set/compare-runs.js'
import { buildReport, type ReportAssertion } from '../../src/report/model.js'
import { EXIT } from '../../cli/main.js'
import { runCli } from './run-cli.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-compare-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const ids = Array.from({ length: 20 }, (_, i) => `q${String(i).padStart(2, '0')}`)

/** One set assertion of `metric` over the eval set "qa", per-case values as given (in the given id order). */
function setAssertion(metric: string, values: Record<string, number>, over: Partial<ReportAssertion> = {}): ReportAssertion {
  const entries = Object.entries(values)
  const mean = entries.reduce((s, [, v]) => s + v, 0) / entries.length
  return {
    file: 'test/qa.test.ts',
    describe: ['qa'],
    test: metric,
    fullName: `qa > ${metric}`,
    testIndex: 0,
    index: 1,
    matcher: 'toHaveRecallAtK',
    metric: `mean ${metric}`,
    value: mean,
    threshold: 0.4,
    comparator: '>=',
    pass: mean >= 0.4,
    isNot: false,
    outcome: mean >= 0.4,
    signature: 'R|k:3|empty:zero|dup:first|version:0.1.0',
    set: 'qa',
    setSize: entries.length,
    perCase: entries.map(([id, value]) => ({ id, value, pass: value >= 0.4 })),
    ...over,
  }
}

function writeReport(name: string, assertions: ReportAssertion[]): string {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify(buildReport(assertions, { runner: 'vitest', createdAt: new Date('2026-01-01T00:00:00Z') })))
  return file
}

const ones = Object.fromEntries(ids.map((id) => [id, 1]))
// half of the cases lose their hit; listed in REVERSE order, so pairing by position would pair wrong ids
const halved = Object.fromEntries([...ids].reverse().map((id, i) => [id, Number(id.slice(1)) % 2 === 0 ? 0 : 1 + 0 * i]))

describe('rag-matchers compare', () => {
  it('pairs cases by id, prints both values, the delta, the p-value and the verdict', async () => {
    const base = writeReport('base', [setAssertion('R@3', ones)])
    const next = writeReport('new', [setAssertion('R@3', halved)])
    const out = await runCli(['compare', base, next])
    expect(out.code).toBe(EXIT.ok)
    expect(out.stdout).toContain('Eval set "qa" · 20 compared, 0 added, 0 removed · FAIL')
    expect(out.stdout).toMatch(/\n {2}metric +base +new +delta +p +n +verdict\n/)
    expect(out.stdout).toMatch(/\n {2}mean R@3 +1\.0000 +0\.5000 +−0\.5000 +1\.0e-4 +20 +regressed\n/)
    expect(out.stdout).toContain('verdict: FAIL')
    // --check makes a failed comparison the exit code
    expect((await runCli(['compare', base, next, '--check'])).code).toBe(EXIT.evaluation)
    expect((await runCli(['compare', base, base, '--check'])).code).toBe(EXIT.ok)
  })

  it('prints set names and case ids from a report as escaped text: no control character, no forged line (#27)', async () => {
    const forged = '\n## ✅ All checks passed\u001b[2J\r'
    const set = `qa${forged}`
    const hostile = (values: Record<string, number>) => Object.fromEntries(Object.entries(values).map(([id, v]) => [`${id}${forged}`, v]))
    const base = writeReport('base', [setAssertion('R@3', hostile(ones), { set, describe: [set] })])
    const next = writeReport('new', [setAssertion('R@3', hostile(halved), { set, describe: [set] })])
    for (const format of ['text', 'md']) {
      const out = await runCli(['compare', base, next, '--format', format])
      expect(out.stdout).toContain('regressed')
      // text: the line feed shown as \n; Markdown: a line feed is a space (a cell or heading is one line)
      expect(out.stdout).toContain(`qa${format === 'md' ? ' ' : '\\n'}## ✅ All checks passed\\x1b[2J\\r`)
      expect(out.stdout.includes('\u001b') || out.stdout.includes('\r')).toBe(false)
      expect(out.stdout.split('\n').filter((line) => line.startsWith('## ✅'))).toEqual([])
    }
  })

  it("gives exactly the numbers of compareRuns, the baseline gate's implementation", async () => {
    const noisy = Object.fromEntries(ids.map((id, i) => [id, ((i * 7) % 5) / 4]))
    const base = writeReport('base', [setAssertion('R@3', ones)])
    const next = writeReport('new', [setAssertion('R@3', noisy)])
    const json = JSON.parse((await runCli(['compare', base, next, '--format', 'json', '--test', 'permutation', '--seed', '7'])).stdout)
    const m = json.evalSets[0].metrics[0]
    const direct = compareRuns(
      { metrics: { 'mean R@3': { signature: 'R|k:3|rev:1', values: ones } } },
      { metrics: { 'mean R@3': { signature: 'R|k:3|rev:1', values: noisy } } },
      { test: 'permutation', seed: 7, cases: 'shared' },
    ).metrics[0]!
    expect([m.base, m.new, m.delta, m.pValue, m.status, m.n]).toEqual([direct.baselineMean, direct.currentMean, direct.delta, direct.pValue, direct.status, direct.n])
    expect(json.evalSets[0].coverage).toEqual({ mode: 'shared', added: [], removed: [], compared: 20, ok: true })
  })

  it('writes Markdown with one table per eval set', async () => {
    const base = writeReport('base', [setAssertion('R@3', ones)])
    const next = writeReport('new', [setAssertion('R@3', ones)])
    const md = (await runCli(['compare', base, next, '--format=md'])).stdout
    expect(md).toContain('### Eval set "qa" · 20 compared, 0 added, 0 removed\n\n| metric | base | new | delta | p | n | verdict |\n| --- |')
    expect(md).toContain('| mean R@3 | 1.0000 | 1.0000 | ±0.0000 | 1.0000 | 20 | ok |')
    expect(md).toContain('**Verdict:** no regression')
  })

  it('reports added and removed cases, and fails with --cases equal', async () => {
    const base = writeReport('base', [setAssertion('R@3', { ...ones, gone: 1 })])
    const next = writeReport('new', [setAssertion('R@3', { ...ones, fresh: 0 })])
    const shared = await runCli(['compare', base, next])
    expect(shared.stdout).toContain('Eval set "qa" · 20 compared, 1 added, 1 removed\n')
    const equal = await runCli(['compare', base, next, '--cases', 'equal', '--check'])
    expect(equal.stdout).toContain('20 compared, 1 added, 1 removed · FAIL')
    expect(equal.code).toBe(EXIT.evaluation)
  })

  it('honours a lower-is-better metric recorded with direction: lower', async () => {
    const ter = (values: Record<string, number>) =>
      setAssertion('TER', values, { matcher: 'toScoreTerBelow', signature: 'TER|rev:1', comparator: '<', direction: 'lower' } as Partial<ReportAssertion>)
    const base = writeReport('base', [ter(Object.fromEntries(ids.map((id) => [id, 0.2])))])
    const next = writeReport('new', [ter(Object.fromEntries(ids.map((id) => [id, 0.5])))])
    const out = (await runCli(['compare', base, next])).stdout
    expect(out).toMatch(/mean TER \(lower is better\) +0\.2000 +0\.5000 +\+0\.3000 +1\.0e-4 +20 +regressed/)
    const better = (await runCli(['compare', next, base])).stdout
    expect(better).toMatch(/mean TER \(lower is better\) +0\.5000 +0\.2000 +−0\.3000 .* improved/)
  })

  it('lists set-level scores and one-sided metrics as not paired, and says when a test cannot reach alpha', async () => {
    const corpus = (value: number) =>
      setAssertion('BLEU', {}, { matcher: 'toScoreBleuAbove', metric: 'BLEU (corpus)', value, perCase: undefined, setSize: 20, scale: 100, threshold: 30, index: 2 })
    const base = writeReport('base', [setAssertion('R@3', { a: 1, b: 1, c: 1 }), corpus(40)])
    const next = writeReport('new', [setAssertion('R@3', { a: 0, b: 0, c: 0 }), corpus(38.5)])
    const out = (await runCli(['compare', base, next, '--test', 'permutation'])).stdout
    expect(out).toMatch(/BLEU \(corpus\) +40\.00 +38\.50 +−1\.50 +— +— +not paired: a set-level score/)
    expect(out).toContain('the permutation test cannot reach p < 0.05 on these cases (smallest attainable p 0.1250)')
    expect(out).toContain('verdict: FAIL')
  })

  it('lists the cases that regressed on their own, worst first and bounded, in text, Markdown and JSON (issue #26)', async () => {
    // one of 20 cases loses its hit: the mean drop is not significant, the case is named
    const oneLost = { ...ones, q05: 0 }
    const base = writeReport('base', [setAssertion('R@3', ones)])
    const next = writeReport('new', [setAssertion('R@3', oneLost)])
    const text = (await runCli(['compare', base, next])).stdout
    expect(text).toMatch(/mean R@3 +1\.0000 +0\.9500 +−0\.0500 +0\.\d{4} +20 +dropped \(not significant\)\n/)
    expect(text).toContain(
      '  cases that regressed in mean R@3 (1 of 20 dropped by more than the tolerance 0.0200), worst first:\n    q05  mean R@3  1.0000 → 0.0000  (−1.0000)\n',
    )
    expect(text).toContain('verdict: no regression')
    // --max-regressed-cases 0 makes it a failure
    const strict = await runCli(['compare', base, next, '--max-regressed-cases', '0', '--check'])
    expect(strict.code).toBe(EXIT.evaluation)
    expect(strict.stdout).toContain('(1 of 20 dropped by more than the tolerance 0.0200, more than --max-regressed-cases 0)')
    expect((await runCli(['compare', base, next, '--max-regressed-cases=1', '--check'])).code).toBe(EXIT.ok)
    // bounded in text, all in JSON
    const halvedReport = writeReport('halved', [setAssertion('R@3', halved)])
    const many = (await runCli(['compare', base, halvedReport])).stdout
    expect(many).toContain('(10 of 20 dropped by more than the tolerance 0.0200), worst first:\n    q00  mean R@3  1.0000 → 0.0000  (−1.0000)\n')
    expect(many).toContain('    q08  mean R@3  1.0000 → 0.0000  (−1.0000)\n    … and 5 more\n')
    const md = (await runCli(['compare', base, halvedReport, '--format', 'md'])).stdout
    expect(md).toContain(
      '**Regressed cases**\n\n- cases that regressed in mean R@3 (10 of 20 dropped by more than the tolerance 0.0200), worst first: `q00` 1.0000 → 0.0000 (−1.0000), `q02` 1.0000 → 0.0000 (−1.0000), `q04` 1.0000 → 0.0000 (−1.0000), `q06` 1.0000 → 0.0000 (−1.0000), `q08` 1.0000 → 0.0000 (−1.0000), … and 5 more',
    )
    const json = JSON.parse((await runCli(['compare', base, halvedReport, '--format', 'json'])).stdout)
    expect(json.evalSets[0].metrics[0].regressedCases).toHaveLength(10)
    expect(json.evalSets[0].metrics[0].regressedCases[0]).toEqual({ id: 'q00', baseline: 1, current: 0, delta: -1 })
    expect(json.evalSets[0].metrics[0].tooManyRegressedCases).toBe(false)
    // no per-case regressions in an unchanged run; a bad flag value is a usage error
    expect((await runCli(['compare', base, base])).stdout).not.toContain('cases that regressed')
    const bad = await runCli(['compare', base, base, '--max-regressed-cases', '-1'])
    expect([bad.code, bad.stderr]).toEqual([EXIT.usage, expect.stringContaining('--max-regressed-cases needs an integer ≥ 0, got "-1"')])
  })

  it('says when per-case regressions cannot be listed (no per-case values in both reports)', async () => {
    const corpus = (value: number) =>
      setAssertion('BLEU', {}, { matcher: 'toScoreBleuAbove', metric: 'BLEU (corpus)', value, perCase: undefined, setSize: 20, scale: 100, threshold: 30, index: 2 })
    const out = (await runCli(['compare', writeReport('base', [setAssertion('R@3', ones), corpus(40)]), writeReport('new', [setAssertion('R@3', ones), corpus(30)])])).stdout
    expect(out).toContain('  per-case regressions not listed for BLEU (corpus): no per-case values in both reports\n')
  })

  it('pairs rows only when metric AND signature match: another signature is "not comparable" and fails --check (issue #26 item 5)', async () => {
    const ndcg = (values: Record<string, number>, order?: 'score') =>
      setAssertion('nDCG@3', values, {
        matcher: 'toHaveNdcgAtK',
        signature: `nDCG|k:3|gain:linear|empty:zero|dup:first${order ? '|order:score' : ''}|version:0.1.0`,
      })
    const base = writeReport('base', [ndcg(halved)])
    const next = writeReport('new', [ndcg(ones, 'score')])
    const out = await runCli(['compare', base, next])
    expect(out.stdout).toMatch(/\n {2}mean nDCG@3 +0\.5000 +1\.0000 +n\/a +— +— +not comparable: order:given → order:score\n/)
    expect(out.stdout).toContain('Eval set "qa" · 0 compared, 0 added, 0 removed · FAIL')
    expect(out.stdout).not.toMatch(/improved|regressed|NaN/)
    expect(out.stdout).toContain('verdict: FAIL')
    expect(out.stdout).not.toContain('per-case regressions not listed for mean nDCG@3')
    expect(out.stdout).toContain(
      '  not comparable: mean nDCG@3 was computed with other settings in the two reports (order:given → order:score); its values are not compared, so this fails. Run both systems with the same settings.\n',
    )
    expect((await runCli(['compare', base, next, '--check'])).code).toBe(EXIT.evaluation)
    const json = JSON.parse((await runCli(['compare', base, next, '--format', 'json'])).stdout)
    expect(json.failed).toBe(true)
    expect(json.evalSets[0].metrics).toEqual([])
    expect(json.evalSets[0].unpaired).toEqual([
      {
        metric: 'mean nDCG@3',
        base: 0.5,
        next: 1,
        why: 'not comparable: order:given → order:score',
        decimals: 4,
        comparable: false,
        baseSignature: 'nDCG|k:3|gain:linear|empty:zero|dup:first|order:given|rev:1',
        nextSignature: 'nDCG|k:3|gain:linear|empty:zero|dup:first|order:score|rev:1',
      },
    ])
    const md = (await runCli(['compare', base, next, '--format', 'md'])).stdout
    expect(md).toContain('| mean nDCG@3 | 0.5000 | 1.0000 | n/a | — | — | not comparable: order:given → order:score |')
    // the package version alone is not a difference
    const later = writeReport('later', [setAssertion('nDCG@3', ones, { matcher: 'toHaveNdcgAtK', signature: 'nDCG|k:3|gain:linear|empty:zero|dup:first|version:0.3.0' })])
    expect((await runCli(['compare', base, later])).stdout).toMatch(/mean nDCG@3 +0\.5000 +1\.0000 +\+0\.5000 .* improved/)
  })

  it('refuses set-level scores with other settings too (corpus BLEU tok:13a vs tok:intl)', async () => {
    const corpus = (value: number, tok: string) =>
      setAssertion(
        'BLEU',
        {},
        {
          matcher: 'toScoreBleuAbove',
          metric: 'BLEU (corpus)',
          value,
          perCase: undefined,
          setSize: 20,
          scale: 100,
          threshold: 30,
          index: 2,
          signature: `BLEU|nrefs:1|case:mixed|eff:no|tok:${tok}|smooth:exp|version:0.1.0`,
        },
      )
    const base = writeReport('base', [setAssertion('R@3', ones), corpus(31.18, '13a')])
    const next = writeReport('new', [setAssertion('R@3', ones), corpus(31.48, 'intl')])
    const out = await runCli(['compare', base, next, '--check'])
    expect(out.stdout).toMatch(/BLEU \(corpus\) +31\.18 +31\.48 +n\/a +— +— +not comparable: tok:13a → tok:intl/)
    expect(out.code).toBe(EXIT.evaluation)
    // the same settings: listed, not tested, and not a failure
    const same = writeReport('same', [setAssertion('R@3', ones), corpus(31.48, '13a')])
    expect((await runCli(['compare', base, same, '--check'])).code).toBe(EXIT.ok)
  })

  it('keeps rows with one label and two signatures apart, pairing each with its own', async () => {
    const ndcg = (values: Record<string, number>, order: 'given' | 'score', index: number) =>
      setAssertion('nDCG@3', values, {
        matcher: 'toHaveNdcgAtK',
        index,
        signature: `nDCG|k:3|gain:linear|empty:zero|dup:first${order === 'score' ? '|order:score' : ''}|version:0.1.0`,
      })
    const base = writeReport('base', [ndcg(ones, 'given', 1), ndcg(ones, 'score', 2)])
    const next = writeReport('new', [ndcg(halved, 'given', 1), ndcg(ones, 'score', 2)])
    const out = (await runCli(['compare', base, next])).stdout
    expect(out).toMatch(/mean nDCG@3 \(order:given\) +1\.0000 +0\.5000 +−0\.5000 +1\.0e-4 +20 +regressed/)
    expect(out).toMatch(/mean nDCG@3 \(order:score\) +1\.0000 +1\.0000 +±0\.0000 +1\.0000 +20 +ok/)
  })

  it('compares any metric family by its per-case values and signature: a set judge score', async () => {
    const judge = (values: Record<string, number>, model: string) =>
      setAssertion('grounded', values, {
        matcher: 'toBeGroundedIn',
        metric: 'mean faithfulness',
        signature: `Faithfulness|judge:${model}|prompt:faithfulness-v1|temp:0|version:0.1.0`,
        threshold: 0.8,
      })
    const base = writeReport('base', [judge(ones, 'gpt-4o-mini')])
    const next = writeReport('new', [judge(halved, 'gpt-4o-mini')])
    expect((await runCli(['compare', base, next])).stdout).toMatch(/mean faithfulness +1\.0000 +0\.5000 +−0\.5000 +1\.0e-4 +20 +regressed/)
    // another judge model: other numbers, not comparable
    const other = writeReport('other', [judge(ones, 'llama3.1:8b')])
    const out = await runCli(['compare', base, other, '--check'])
    expect(out.stdout).toContain('not comparable: judge:gpt-4o-mini → judge:llama3.1:8b')
    expect(out.code).toBe(EXIT.evaluation)
  })

  it('refuses bad arguments (exit 1) and files that are not reports (exit 2)', async () => {
    const base = writeReport('base', [setAssertion('R@3', ones)])
    expect((await runCli(['compare', base])).code).toBe(EXIT.usage)
    const bad = await runCli(['compare', base, base, '--format', 'xml'])
    expect([bad.code, bad.stderr]).toEqual([EXIT.usage, expect.stringContaining('--format must be text, md or json, got "xml"')])
    expect((await runCli(['compare', base, base, '--alpha', '2'])).stderr).toContain('--alpha needs a number in (0, 1), got "2"')
    expect((await runCli(['compare', base, base, '--bogus'])).stderr).toContain('unknown option --bogus')
    const junk = join(dir, 'junk.json')
    writeFileSync(junk, '{"hello": 1}')
    const input = await runCli(['compare', base, junk])
    expect(input.code).toBe(EXIT.input)
    expect(input.stderr).toMatch(/^rag-matchers compare: /)
    expect((await runCli(['compare', '--help'])).stdout).toContain('usage: rag-matchers compare')
  })
})

// issue #27: `--check` passes only on a comparison that was made; a report with wrong field types is bad input
describe('rag-matchers compare --check refuses what it could not compare (issue #27)', () => {
  const good = Object.fromEntries(ids.map((id) => [id, 0.8]))

  it('no eval set in both reports fails --check, saying why', async () => {
    const base = writeReport('base', [setAssertion('recall@3', good)])
    const next = writeReport('next', [setAssertion('recall@3', good, { set: 'other', describe: ['other'], fullName: 'other > recall@3' })])
    const out = await runCli(['compare', base, next, '--check'])
    expect(out.code).toBe(EXIT.evaluation)
    expect(out.stdout).toContain('not comparable: no eval set is in both reports: nothing was compared')
    expect(out.stdout).not.toContain('verdict: no regression')
  })

  it('a new report without assertions fails --check', async () => {
    const base = writeReport('base', [setAssertion('recall@3', good)])
    const next = writeReport('next', [])
    const out = await runCli(['compare', base, next, '--check'])
    expect(out.code).toBe(EXIT.evaluation)
    expect(out.stdout).toContain('not comparable: the new report has no assertions')
  })

  it('a metric whose label changed (not paired) fails --check', async () => {
    const base = writeReport('base', [setAssertion('recall@3', good)])
    const next = writeReport('next', [setAssertion('recall@5', good)])
    const out = await runCli(['compare', base, next, '--check'])
    expect(out.code).toBe(EXIT.evaluation)
    expect(out.stdout).toMatch(/not comparable: eval set "qa": mean recall@3 is not paired: it is in the base report only/)
    // without --check the comparison is still shown and exits 0
    expect((await runCli(['compare', base, next])).code).toBe(EXIT.ok)
  })

  it('a new run that used .not fails --check', async () => {
    const base = writeReport('base', [setAssertion('recall@3', good)])
    const next = writeReport('next', [setAssertion('recall@3', good, { isNot: true, outcome: false, pass: true })])
    const out = await runCli(['compare', base, next, '--check'])
    expect(out.code).toBe(EXIT.evaluation)
    expect(out.stdout).toMatch(/not comparable: eval set "qa": the new run asserted mean recall@3 \(\.not\): a \.not assertion inverts the verdict/)
  })

  it('the unchanged case still passes --check', async () => {
    const base = writeReport('base', [setAssertion('recall@3', good)])
    expect((await runCli(['compare', base, base, '--check'])).code).toBe(EXIT.ok)
  })

  it('a string value is bad input (exit 2) naming the file and field, not an internal error', async () => {
    const base = writeReport('base', [setAssertion('recall@3', good)])
    const doc = JSON.parse(readFileSync(base, 'utf8')) as { assertions: Array<Record<string, unknown>> }
    doc.assertions[0]!.value = '0'
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify(doc))
    const out = await runCli(['compare', base, bad, '--check'])
    expect(out.code).toBe(EXIT.input)
    expect(out.stderr).toContain(`${bad}: evalSets[0].metrics[0].value must be a finite number or null, got "0"`)
    expect(out.stderr).not.toMatch(/\n\s+at /)
  })

  it('a string per-case value is bad input too', async () => {
    const base = writeReport('base', [setAssertion('recall@3', good)])
    const doc = JSON.parse(readFileSync(base, 'utf8')) as { assertions: Array<{ perCase: Array<Record<string, unknown>> }> }
    doc.assertions[0]!.perCase[1]!.value = '0.5'
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify(doc))
    const out = await runCli(['compare', bad, base])
    expect(out.code).toBe(EXIT.input)
    expect(out.stderr).toContain('evalSets[0].metrics[0].values[1].value must be a finite number or null, got "0.5"')
  })
})
