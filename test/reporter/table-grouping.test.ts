// The terminal table at scale: a loop over 1,000 cases in one file prints a row per metric (count,
// passed, failed, threshold, worst cases), not a row per assertion, while the HTML page and the JSON
// report keep every assertion. Records are generated with a seeded PRNG; expectations are computed
// from them, not written out.
import { renderHtml } from '../../src/report/html.js'
import { buildReport, type ReportAssertion } from '../../src/report/model.js'
import { GROUP_SINGLES_ABOVE, renderTable } from '../../src/report/table.js'
// the library's seeded PRNG, so every generated case can be replayed
import { mulberry32 as prng } from '../../src/eval-set/statistics.js'

function single(file: string, testIndex: number, over: Partial<ReportAssertion>): ReportAssertion {
  const test = `case ${testIndex + 1}`
  const base: ReportAssertion = {
    file,
    describe: ['loop'],
    test,
    fullName: `loop > ${test}`,
    testIndex,
    index: 1,
    matcher: 'toHaveRecallAtK',
    metric: 'R@3',
    value: 0.5,
    threshold: 0.4,
    comparator: '>=',
    pass: true,
    isNot: false,
    outcome: true,
    signature: 'R@k|k:3|version:0.1.0',
    ...over,
  }
  if (over.outcome !== undefined) return base
  const pass = (base.value as number) >= (base.threshold as number)
  return { ...base, pass, outcome: pass }
}

/** n looped cases in one file, each asserting recall@3 ≥ 0.4 and ROUGE-L ≥ 0.2; ~2% of recalls fail. */
function loopFile(file: string, n: number, seed = 7): ReportAssertion[] {
  const rand = prng(seed)
  const out: ReportAssertion[] = []
  for (let i = 0; i < n; i++) {
    const recall = rand() < 0.02 ? Math.round(rand() * 39) / 100 : 0.4 + Math.round(rand() * 60) / 100
    out.push(single(file, i, { value: recall }))
    const rouge = 0.2 + Math.round(rand() * 80) / 100
    out.push(single(file, i, { index: 2, matcher: 'toScoreRougeLAbove', metric: 'ROUGE-L', value: rouge, threshold: 0.2, signature: 'rougeL|version:0.1.0' }))
  }
  return out
}

function sectionOf(table: string, file: string): string {
  const start = table.indexOf(`Assertions in ${file}`)
  const end = table.indexOf('\n\n', start)
  return table.slice(start, end < 0 ? undefined : end)
}

describe('renderTable groups a file with many single assertions by metric', () => {
  const loop = loopFile('test/loop.test.ts', 1000)
  const report = buildReport([...loop, ...loopFile('test/few.test.ts', 3, 11)], { runner: 'vitest' })
  const table = renderTable(report)

  it('prints a few lines for 2,000 assertions instead of one per assertion', () => {
    const section = sectionOf(table, 'test/loop.test.ts')
    const lines = section.split('\n')
    expect(lines.length).toBeLessThan(10)
    expect(table.split('\n').length).toBeLessThan(30)
    expect(lines[1]).toBe(`  2000 assertions, grouped by metric (more than ${GROUP_SINGLES_ABOVE} in this file); each one is in rag-report.html and rag-report.json`)
    expect(lines[2]).toMatch(/^ {2}metric +assertions +passed +failed +threshold +worst$/)
  })

  it('counts passes and failures per metric, and names the worst cases first', () => {
    const section = sectionOf(table, 'test/loop.test.ts')
    const recalls = loop.filter((a) => a.metric === 'R@3')
    const failed = recalls.filter((a) => !a.outcome)
    expect(failed.length).toBeGreaterThan(3) // the generator must produce failures for this test to mean anything
    const recallRow = section.split('\n').find((l) => l.startsWith('  R@3 '))
    expect(recallRow).toBeDefined()
    const cells = (recallRow as string).trim().split(/ {2,}/)
    expect(cells.slice(0, 5)).toEqual(['R@3', '1000', String(1000 - failed.length), String(failed.length), '≥ 0.4000'])
    // the three lowest failing recalls, lowest first (ties keep test order)
    const worst = [...failed].sort((x, y) => (x.value as number) - (y.value as number) || x.testIndex - y.testIndex).slice(0, 3)
    expect(cells[5]).toBe(worst.map((a) => `${a.test} ${(a.value as number).toFixed(4)} FAIL`).join(', '))
    // ROUGE-L all pass: its worst are the nearest to the threshold
    const rougeRow = section.split('\n').find((l) => l.startsWith('  ROUGE-L '))
    expect(rougeRow?.trim().split(/ {2,}/).slice(1, 4)).toEqual(['1000', '1000', '0'])
  })

  it('keeps a small file as one row per assertion, and groups only above the threshold', () => {
    const few = sectionOf(table, 'test/few.test.ts').split('\n')
    expect(few.slice(1, 2)[0]).toMatch(/^ {2}test +metric +value +threshold +result$/)
    expect(few).toHaveLength(2 + 6)
    // 20 cases × 2 = 40 assertions: at the threshold, still listed; 41 are grouped
    const at = renderTable(buildReport(loopFile('test/at.test.ts', GROUP_SINGLES_ABOVE / 2), { runner: 'vitest' }))
    expect(sectionOf(at, 'test/at.test.ts').split('\n')).toHaveLength(2 + GROUP_SINGLES_ABOVE)
    const above = loopFile('test/above.test.ts', GROUP_SINGLES_ABOVE / 2 + 1).slice(0, GROUP_SINGLES_ABOVE + 1)
    expect(sectionOf(renderTable(buildReport(above, { runner: 'vitest' })), 'test/above.test.ts')).toContain(`${GROUP_SINGLES_ABOVE + 1} assertions, grouped by metric`)
  })

  it('shows a threshold range and the .not mark when they differ within a metric', () => {
    const mixed = Array.from({ length: 50 }, (_, i) => single('test/mixed.test.ts', i, { value: 0.9, threshold: i % 2 === 0 ? 0.3 : 0.6 }))
    const not = Array.from({ length: 5 }, (_, i) => single('test/mixed.test.ts', 50 + i, { value: 0.1, threshold: 0.5, comparator: '<', isNot: true, outcome: true }))
    const section = sectionOf(renderTable(buildReport([...mixed, ...not], { runner: 'vitest' })), 'test/mixed.test.ts')
    expect(section).toMatch(/\n {2}R@3 +50 +50 +0 +≥ 0\.3000…0\.6000 +/)
    expect(section).toMatch(/\n {2}R@3 \(\.not\) +5 +5 +0 +< 0\.5000 +/)
  })

  it('keeps every assertion in the JSON report and the HTML page', () => {
    const file = report.singles.find((f) => f.file === 'test/loop.test.ts')
    expect(file?.assertions).toHaveLength(2000)
    const html = renderHtml(report)
    // every row is there (counted, not printed: the page is large)
    expect(html.split('<tr><td>loop &gt; case ').length - 1).toBe(2006)
    for (const i of [1, 500, 1000]) expect(html.includes(`<tr><td>loop &gt; case ${i}</td>`)).toBe(true)
  })
})
