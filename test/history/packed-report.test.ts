// The stored form of a report (src/history/packed-report.ts): every per-case fact once, and put back together
// into the very JSON the report had — also for hand-edited reports whose parts are not in the canonical form.
import { describe, expect, test } from 'vitest'
import { contentHash, packReport, unpackReport } from '../../src/history/packed-report.js'
import type { RagReport, ReportAssertion } from '../../src/report/model.js'
import { makeReport } from './make-report.js'
import { variedReport } from './varied-report.js'

const roundTrip = (report: RagReport): RagReport => {
  const p = packReport(report)
  return unpackReport(p.skeleton, p.values, p.cases)
}
const layoutOf = (report: RagReport) =>
  (JSON.parse(packReport(report).skeleton) as { layout: { rows: unknown[]; sets: unknown[]; perCase: unknown[]; caseTexts: unknown[] } }).layout

const json = (value: unknown) => JSON.stringify(value)
/** The 'qa' eval set of a variedReport clone. */
const qa = (r: Record<string, any>): Record<string, any> => r.evalSets.find((s: { name: string }) => s.name === 'qa')
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

describe('packReport / unpackReport', () => {
  test('a canonical report: every per-case fact cut out of the skeleton, put back to the same JSON', () => {
    const report = makeReport({ sets: 2, metrics: 3, cases: 50, seed: 4 })
    const packed = packReport(report)
    expect(layoutOf(report)).toEqual({
      rows: [0, 1].flatMap((s) => [0, 1, 2].map((m) => [s, m])),
      sets: [0, 1],
      perCase: report.assertions.map((a, i) => [i, Number(a.set?.slice(3)), Number(a.metric.slice(6)), 0, 0]),
      caseTexts: report.assertions.flatMap((a, i) => (a.cases ? [[i, Number(a.set?.slice(3)), 0, 0]] : [])),
    })
    expect(packed.skeleton).not.toContain('question 7?')
    expect(packed.skeleton.length * 10).toBeLessThan(json(report).length)
    expect(packed.values).toHaveLength(6)
    expect(packed.values.every((v) => v.ids === undefined && v.values.byteLength === 50 * 8 && v.passes.byteLength === 50)).toBe(true)
    expect(packed.cases).toHaveLength(100)
    expect(json(roundTrip(report))).toBe(json(report))
  })

  test('the shapes of a real run round-trip exactly; a row over other cases keeps its ids', () => {
    const report = variedReport()
    const packed = packReport(report)
    const qa = report.evalSets.find((s) => s.name === 'qa')
    expect(qa?.metrics.map((m) => m.values?.map((v) => v.id))).toEqual([
      ['q1', 'q2', 'q3', 'q4'],
      ['q1', 'q2', 'q3', 'q4', 'q5'],
      ['q1', 'q2', 'q3', 'q4'],
      ['q3', 'q1'],
    ])
    // Rows over the set's cases in order (mrr: q1…q5) refer to the set's ids; the others keep their own.
    expect(packed.values.filter((v) => v.ids !== undefined).map((v) => v.ids)).toEqual([
      ['q1', 'q2', 'q3', 'q4'],
      ['q1', 'q2', 'q3', 'q4'],
      ['q3', 'q1'],
    ])
    const layout = layoutOf(report)
    // Every row with values, every set with cases, every assertion's perCase (also the two parts of the pooled
    // mrr row: entries 0… and 3…) is cut out, the positional ones with their marks.
    expect(layout.rows).toHaveLength(report.evalSets.flatMap((s) => s.metrics.filter((m) => m.values)).length)
    expect(layout.sets).toHaveLength(report.evalSets.filter((s) => s.cases.length > 0).length)
    expect(layout.perCase).toHaveLength(report.assertions.filter((a) => a.perCase).length)
    expect(layout.perCase).toContainEqual([expect.any(Number), expect.any(Number), 0, 1, 0])
    expect(layout.perCase.map((r) => (r as unknown[])[4])).toContain(3)
    // mrr's second part has texts of its own for q4 (another answer): it stays inline.
    expect(layout.caseTexts).toHaveLength(report.assertions.filter((a) => a.cases).length - 1)
    expect(json(roundTrip(report))).toBe(json(report))
  })

  // Hand-edited or foreign reports: whatever is not in the canonical form stays inline, and still comes back as it was.
  const edits: Array<[string, (r: Record<string, any>) => void]> = [
    ['an entry with its keys in another order', (r) => (qa(r).metrics[0].values[1] = { value: 0.25, id: 'q2', pass: false })],
    ['an entry with an extra key', (r) => (qa(r).metrics[1].values[0].note = 'x')],
    ['an entry whose value is a string', (r) => (qa(r).metrics[0].values[2].value = '0.5')],
    ['an entry whose id is a number', (r) => (qa(r).metrics[0].values[0].id = 1)],
    ['a case whose values are in another order', (r) => (qa(r).cases[0].values = Object.fromEntries(Object.entries(qa(r).cases[0].values).reverse()))],
    ['a case failing one metric more', (r) => qa(r).cases[0].failing.push('mean mrr')],
    ['a case with a key after failing', (r) => (qa(r).cases[1].extra = true)],
    ['a case value that differs from its row', (r) => (Object.values(qa(r).cases[3].values as Record<string, { value: number }>)[0]!.value = 0.123)],
    ['a case value whose pass differs from its row', (r) => (Object.values(qa(r).cases[0].values as Record<string, { pass: boolean }>)[0]!.pass = false)],
    ['a case value without pass', (r) => delete Object.values(qa(r).cases[1].values as Record<string, { pass?: boolean }>)[1]!.pass],
    ['cases that are not an array', (r) => (qa(r).cases = null)],
    ['a case without an id', (r) => delete qa(r).cases[2].id],
    ['a metric row without a key', (r) => delete qa(r).metrics[0].key],
    ['values that are not an array', (r) => (qa(r).metrics[0].values = { q1: 1 })],
    ['an assertion perCase that differs from its row', (r) => (r.assertions.find((a: ReportAssertion) => a.perCase).perCase[0].value = 0.999)],
    ['an assertion perCase in another order', (r) => r.assertions.find((a: ReportAssertion) => a.perCase).perCase.reverse()],
    ['assertion case texts that differ from the set', (r) => (r.assertions.find((a: ReportAssertion) => a.cases).cases[0].answer = 'edited')],
    ['an eval set that is not an object', (r) => r.evalSets.push(7)],
    ['an assertion that is not an object', (r) => r.assertions.push('x')],
  ]
  test.each(edits)('%s: round-trips', (_name, edit) => {
    const report = clone(variedReport()) as Record<string, any>
    edit(report)
    expect(json(roundTrip(report as RagReport))).toBe(json(report))
  })

  test('random edits anywhere in the sets and assertions round-trip (seeded)', () => {
    let seed = 12345
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T
    const primitives = [null, 0, -1, 0.5, 'q1', 'x', true, false, [], {}]
    for (let round = 0; round < 300; round++) {
      const report = clone(variedReport()) as Record<string, any>
      for (let k = 1 + Math.floor(rand() * 3); k > 0; k--) {
        // Walk down from an eval set or an assertion to a random container, then edit one of its slots.
        let node: any = pick([report.evalSets, report.assertions])
        for (let depth = Math.floor(rand() * 6); depth > 0; depth--) {
          const keys = Object.keys(node).filter((key) => node[key] !== null && typeof node[key] === 'object')
          if (keys.length === 0) break
          node = node[pick(keys)]
        }
        const keys = Object.keys(node)
        const action = rand()
        if (keys.length > 0 && action < 0.35) node[pick(keys)] = pick(primitives)
        else if (keys.length > 0 && action < 0.55 && !Array.isArray(node)) delete node[pick(keys)]
        else if (action < 0.75 && Array.isArray(node) && node.length > 1) node.reverse()
        else if (!Array.isArray(node)) {
          const entries = Object.entries(node)
          for (const key of keys) delete node[key]
          for (const [key, value] of entries.reverse()) node[key] = value
        } else node.push(pick(primitives))
      }
      const back = roundTrip(report as RagReport)
      expect(json(back), `round ${round}`).toBe(json(report))
    }
  })
})

describe('content hash', () => {
  test('a report and its JSON round trip hash alike (NaN, -0, undefined as JSON writes them)', () => {
    const report = clone(variedReport()) as Record<string, any>
    const inMemory = clone(report)
    qa(inMemory).metrics[1].values[0].value = Number.NaN
    qa(inMemory).metrics[1].values[1].value = -0
    qa(inMemory).metrics[1].values[1].note = undefined
    inMemory.assertions.find((a: ReportAssertion) => a.extra).extra.missing = undefined
    const parsed = JSON.parse(JSON.stringify(inMemory)) as RagReport
    expect(contentHash(inMemory as RagReport)).toBe(contentHash(parsed))
    expect(json(roundTrip(inMemory as RagReport))).toBe(json(parsed))
  })

  test('any changed fact changes the hash: a per-case value, a case text, a run fact', () => {
    const base = variedReport()
    const hashes = new Set([contentHash(base)])
    const value = clone(base) as Record<string, any>
    qa(value).metrics[1].values[0].value = 0.999
    qa(value).cases[0].values[qa(value).metrics[1].key].value = 0.999
    value.assertions.find((a: ReportAssertion) => a.metric === 'mean mrr').perCase[0].value = 0.999
    hashes.add(contentHash(value as RagReport))
    const text = clone(base) as Record<string, any>
    qa(text).cases[1].answer = 'another answer'
    hashes.add(contentHash(text as RagReport))
    hashes.add(contentHash({ ...base, createdAt: '2026-02-03T04:05:07.000Z' }))
    expect(hashes.size).toBe(4)
  })
})
