// Every printed surface of a run (issue #27), generated: each declared matcher's call (seeds.ts) with hostile
// user text, run with and without `.not`, recorded the way the reporters record it (toRecord / toErrorRecord),
// in a test file, describe block and test whose names are hostile too, with a failure outside the matchers;
// then the report rendered as the terminal table, rag-report.md and rag-report.html.
// - terminal table: no raw control, C1, separator or bidi character, no line that starts with user text
//   (printed.ts);
// - Markdown: no raw control character but the layout's line feeds, no forged line;
// - HTML: the markup in user text is escaped, never a tag.
// `rag-matchers compare` (cli/compare.ts) is not checked here: its text and Markdown print set names and
// labels raw (issue #27, left to the owner of that file), so the check would fail until it escapes them.
// Run by test/property/surfaces.property.test.ts (Vitest) and test/jest/property-registry.test.ts (Jest).
import fc from 'fast-check'
import { allMatchers } from '../../matchers/all.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import { renderHtml } from '../../src/report/html.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { buildReport, fromRecord, type RagReport, type ReportAssertion } from '../../src/report/model.js'
import { toErrorRecord, toRecord, type RecordedAssertion } from '../../src/report/record.js'
import { renderTable } from '../../src/report/table.js'
import { mutateText, textMutation } from './mutate.js'
import { assertPrintable, FORGED, injection, type Injection } from './printed.js'
import { registry, removeSeedFiles, type SuiteOptions } from './seeds.js'

/** Markup a report must show as text. */
const TAG = '<img src=x data-forged>'

const context = (isNot: boolean): MatcherContext => ({
  isNot,
  promise: '',
  utils: { matcherHint: (n) => n, printReceived: (v) => String(v), printExpected: (v) => String(v) },
})

/** One call recorded as the reporters record it: the result's meta, or the error it threw. */
async function record(name: string, isNot: boolean, received: unknown, args: readonly unknown[]): Promise<RecordedAssertion | undefined> {
  const ctx = context(isNot)
  try {
    const result = (await allMatchers[name as keyof typeof allMatchers].call(ctx, received, ...args)) as MatcherResult
    if (result.meta === undefined) return undefined
    return toRecord(ctx, name, received, result.pass, result.meta as Parameters<typeof toRecord>[4])
  } catch (error) {
    return toErrorRecord(ctx, name, received, error)
  }
}

/** The hostile text of a run, with markup after it. */
const hostile = (inject: Injection) => (s: string) => `${inject(s)}${TAG}`

function checkSurfaces(report: RagReport): void {
  assertPrintable('terminal table', renderTable(report))
  assertPrintable('rag-report.md', renderMarkdown(report))
  const html = renderHtml(report)
  if (html.includes(TAG)) throw new Error(`rag-report.html: user markup printed as a tag: …${html.slice(Math.max(0, html.indexOf(TAG) - 80), html.indexOf(TAG) + 40)}…`)
}

export function surfacesSuite(o: SuiteOptions): void {
  const entries = registry()
  describe(`hostile user text in every printed surface of a run (seed ${o.seed})`, () => {
    afterAll(removeSeedFiles)
    it(`every matcher's records, in the terminal table, rag-report.md and rag-report.html, with and without .not (${o.asyncRuns} runs of ${entries.length} matchers)`, async () => {
      let reached = 0
      await fc.assert(
        fc.asyncProperty(fc.nat(), textMutation, injection, async (which, mutation, inject) => {
          const text = hostile(inject)
          const assertions: ReportAssertion[] = []
          let index = 0
          for (const entry of entries) {
            const seed = (entry.seeds[which % entry.seeds.length] as (typeof entry.seeds)[number])(text)
            const call = [seed.received, ...seed.args]
            mutateText(call, mutation, text)
            const [received, ...args] = call
            seed.setup?.(received, args)
            for (const isNot of [false, true]) {
              const r = await record(entry.name, isNot, received, args)
              if (r === undefined) continue
              index += 1
              assertions.push(
                fromRecord(r, { file: `test/${text('qa')}.test.ts`, describe: [text('suite')], test: text(entry.name), fullName: text(entry.name), testIndex: index, index }),
              )
            }
          }
          const run = {
            tests: assertions.length + 1,
            failedTests: 1,
            failedOutside: [{ file: `test/${text('other')}.test.ts`, test: text('a plain expect'), error: text('expected 1 to be 2') }],
            fileErrors: [{ file: `test/${text('broken')}.test.ts`, error: text('SyntaxError') }],
          }
          const createdAt = new Date(0)
          const report = buildReport(assertions, { runner: 'vitest', run, createdAt })
          checkSurfaces(report)
          if (renderTable(report).includes(FORGED)) reached += 1
        }),
        { seed: o.seed, numRuns: o.asyncRuns },
      )
      expect(reached).toBeGreaterThan(0)
    })
  })
}
