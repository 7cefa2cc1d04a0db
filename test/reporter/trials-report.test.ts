// Trials in the reports (issue #30): a judge assertion with trials, run against the flipping fake judge,
// recorded the way the reporters record it (meta → record → report); the terminal table, rag-report.md
// and rag-report.html show its trials line, and rag-report.json keeps the record the line is made from.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { allMatchers } from '../../matchers/all.js'
import { HistoryStore } from '../../src/history/store.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import { renderHtml } from '../../src/report/html.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { buildReport, fromRecord, type RagReport } from '../../src/report/model.js'
import { toRecord } from '../../src/report/record.js'
import { renderTable } from '../../src/report/table.js'
import { recordedTrials, trialLines } from '../../src/report/trials.js'
import { startFlippingJudge, verdictOf, type FlippingCase } from '../helpers/trials-flipping-judge.js'

const RUBRIC = { id: 'correct', criteria: 'The answer states the right number.' }
const context: MatcherContext = { isNot: false, promise: '', utils: { matcherHint: (n) => n, printReceived: String, printExpected: String } }

async function reportWithTrials(): Promise<{ report: RagReport; cases: Map<string, FlippingCase> }> {
  const cases = new Map<string, FlippingCase>(Array.from({ length: 8 }, (_, i) => [`report answer ${i}`, { pass: i < 6, p: 0.3 }]))
  const server = await startFlippingJudge('ollama', cases)
  try {
    const received = [...cases.keys()].map((answer, i) => ({ id: `q${i}`, answer }))
    const set = (await allMatchers.toSatisfyRubric.call(context, received, RUBRIC, 0.5, { judge: server.judge(), repeat: 4 })) as MatcherResult
    const single = (await allMatchers.toSatisfyRubric.call(context, 'report answer 0', RUBRIC, 0.5, { judge: server.judge(), repeat: 4 })) as MatcherResult
    const where = (test: string, index: number) => ({ file: 'judge.test.ts', describe: ['judge'], test, fullName: `judge > ${test}`, testIndex: index, index: 0 })
    const records = [
      fromRecord(toRecord(context, 'toSatisfyRubric', received, set.pass, set.meta!), where('set', 0)),
      fromRecord(toRecord(context, 'toSatisfyRubric', 'report answer 0', single.pass, single.meta!), { ...where('one answer', 1), describe: [] }),
    ]
    return { report: buildReport(records, { runner: 'vitest', createdAt: new Date('2026-01-01T00:00:00Z') }), cases }
  } finally {
    await server.close()
  }
}

describe('trials in the reports', () => {
  it('the terminal table, Markdown and HTML show each trial line; the JSON keeps the record', async () => {
    const { report, cases } = await reportWithTrials()
    const setAssertion = report.assertions.find((a) => a.test === 'set')!
    const t = recordedTrials(setAssertion)!
    // the recorded numbers are the server's verdicts, counted here
    const verdicts = [...cases].map(([answer, c]) => [0, 1, 2, 3].map((k) => verdictOf(c, answer, 42 + k)))
    expect(t.passRate).toBe(verdicts.flat().filter(Boolean).length / 32)
    expect(t.flipRate).toBe(verdicts.filter((row) => new Set(row).size > 1).length / 8)
    const lines = trialLines(report.assertions)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain(`mean rubric score: 4 trials × 8 cases · mean ${t.mean.toFixed(2)}`)
    expect(lines[0]).toContain(`pass rate ${t.passRate.toFixed(2)} · flip rate ${t.flipRate.toFixed(2)}`)
    expect(lines[1]).toMatch(/^rubric score: 4 trials × 1 case/)

    const text = renderTable(report)
    expect(text).toContain(`  trials:\n    ${lines[0]}`)
    expect(text).toContain(`    ${lines[1]}`)
    const md = renderMarkdown(report)
    expect(md).toContain('**Trials**')
    expect(md).toContain('### Trials of single-case assertions')
    const html = renderHtml(report)
    expect(html).toContain('<div class="trials"><h3>Trials</h3>')
    expect((html.match(/<div class="trials">/g) ?? []).length).toBe(2)

    const json = JSON.parse(JSON.stringify(report)) as RagReport
    expect(json.assertions.find((a) => a.test === 'set')?.extra?.trials).toEqual(setAssertion.extra?.trials)
  })

  it('the history store keeps the trials of every assertion (a SQLite store, read back)', async () => {
    const { report } = await reportWithTrials()
    const dir = mkdtempSync(join(tmpdir(), 'rag-trials-history-'))
    try {
      const store = await HistoryStore.open({ kind: 'sqlite', path: join(dir, 'history.sqlite') }, { root: dir, write: true })
      try {
        const { id } = await store.append(report, { source: 'import' })
        const back = await store.readRun(id)
        expect(back.assertions.map((a) => a.extra?.trials)).toEqual(report.assertions.map((a) => a.extra?.trials))
        expect(trialLines(back.assertions)).toEqual(trialLines(report.assertions))
      } finally {
        await store.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a hand-edited or missing trials record shows nothing rather than NaN', () => {
    const base = {
      extra: {
        trials: { n: 3, cases: 2, mean: 0.5, min: 0.4, max: 0.6, passRate: 0.5, flipRate: Number.NaN, fleissKappa: { value: null }, krippendorffAlpha: { value: 0.2 } },
      },
    }
    expect(recordedTrials(base as never)).toBeUndefined()
    expect(recordedTrials({ extra: {} } as never)).toBeUndefined()
    const sound = { ...base, extra: { trials: { ...base.extra.trials, flipRate: 0.5, flipped: ['q1'] } } }
    expect(trialLines([{ ...sound, metric: 'groundedness', isNot: false } as never])[0]).toContain('self-consistency κ n/a, α 0.20')
  })
})
