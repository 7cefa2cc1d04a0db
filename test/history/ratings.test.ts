// History schema 4 (#30): people's ratings of a run's cases (src/history/ratings.ts), on SQLite and on a
// real PostgreSQL server. A new store has the table; a version 3 store reads as having no ratings and gets
// the table on its next write, its runs unchanged; a rater who rates again replaces their rating; two
// raters writing at once through two connections lose nothing; the export reads back through the
// agreement API.
import { describe, expect, test } from 'vitest'
import { agreementReport } from '../../src/agreement/report.js'
import { parseRatings } from '../../src/agreement/ratings.js'
import { allRatings, hasRatingsTable, ratingsJsonl, readRatings, saveRating } from '../../src/history/ratings.js'
import { SCHEMA_VERSION } from '../../src/history/schema.js'
import { HistoryStore } from '../../src/history/store.js'
import { BACKENDS, backendTitle, skipBackend, storeFixture } from '../helpers/history-backends.js'
import { makeReport } from './make-report.js'

for (const kind of BACKENDS) {
  describe.skipIf(skipBackend(kind))(backendTitle('history schema 4: ratings', kind), () => {
    const fx = storeFixture(kind)

    test('a new store has the ratings table; a version 3 store reads as no ratings and gets the table on its next write', async () => {
      const { target, dir } = await fx.fresh()
      const store = await HistoryStore.open(target, { root: dir, write: true })
      expect(SCHEMA_VERSION).toBe(4)
      expect(store.schemaVersion).toBe(4)
      expect(await hasRatingsTable(store)).toBe(true)
      const { id } = await store.append(makeReport({ sets: 1, metrics: 1, cases: 3 }), { source: 'vitest' })
      const runs = await store.listRuns()
      // the store as version 3 left it
      await store.backend.exec('DROP TABLE ratings')
      await store.backend.run(`UPDATE meta SET value = '3' WHERE key = 'schema_version'`)
      await store.close()

      const v3 = await HistoryStore.open(target, { root: dir, write: false })
      expect(v3.schemaVersion).toBe(3)
      expect(await hasRatingsTable(v3)).toBe(false)
      expect(await readRatings(v3, { runId: id, set: 'set0' })).toEqual([])
      expect(await v3.listRuns()).toEqual(runs)
      await v3.close()

      const written = await HistoryStore.open(target, { root: dir, write: true })
      expect(written.schemaVersion).toBe(4)
      expect(await hasRatingsTable(written)).toBe(true)
      expect(await written.listRuns()).toEqual(runs)
      await saveRating(written, { runId: id, set: 'set0', caseId: 'q0', rater: 'ana', dimension: 'correctness', score: 4 })
      expect((await readRatings(written, { runId: id, set: 'set0' })).map((r) => r.score)).toEqual([4])
      await written.close()
    })

    test('a rater who rates the same case and dimension again replaces the rating; other raters, dimensions and pairs are kept apart', async () => {
      const { target, dir } = await fx.fresh()
      const store = await HistoryStore.open(target, { root: dir, write: true })
      try {
        const base = { runId: 'r1', set: 'qa', caseId: 'q1' }
        await saveRating(store, { ...base, rater: 'ana', dimension: 'correctness', score: 2 }, new Date('2026-01-01T00:00:00Z'))
        await saveRating(store, { ...base, rater: 'ana', dimension: 'correctness', score: 5 }, new Date('2026-01-01T00:01:00Z'))
        await saveRating(store, { ...base, rater: 'ben', dimension: 'correctness', score: 3 })
        await saveRating(store, { ...base, rater: 'ana', dimension: 'grounded', choice: 'pass' })
        await saveRating(store, { ...base, rater: 'ana', dimension: 'preference', otherRunId: 'r0', choice: 'b', shownFirst: 'r0' })
        await saveRating(store, { ...base, rater: 'ana', dimension: 'preference', otherRunId: 'r0', choice: 'a', shownFirst: 'r1' })
        const direct = await readRatings(store, { runId: 'r1', set: 'qa' })
        expect(direct.map((r) => [r.dimension, r.rater, r.score ?? r.choice])).toEqual([
          ['correctness', 'ana', 5],
          ['correctness', 'ben', 3],
          ['grounded', 'ana', 'pass'],
        ])
        expect(direct[0]?.ratedAt).toBe('2026-01-01T00:01:00.000Z')
        const pairwise = await readRatings(store, { runId: 'r1', set: 'qa', otherRunId: 'r0' })
        expect(pairwise).toEqual([
          { runId: 'r1', set: 'qa', caseId: 'q1', rater: 'ana', dimension: 'preference', otherRunId: 'r0', choice: 'a', shownFirst: 'r1', ratedAt: expect.any(String) },
        ])
        expect(await readRatings(store, { runId: 'r1', set: 'other' })).toEqual([])
        expect((await allRatings(store)).length).toBe(4)
      } finally {
        await store.close()
      }
    })

    test('two raters writing at once through two connections: every rating is stored', async () => {
      const { target, dir } = await fx.fresh()
      // the first open creates the schema; the two raters' handles are two connections (two SQLite handles, two PostgreSQL sessions)
      await (await HistoryStore.open(target, { root: dir, write: true })).close()
      const [one, two] = [await HistoryStore.open(target, { root: dir, write: true }), await HistoryStore.open(target, { root: dir, write: true })]
      try {
        const cases = Array.from({ length: 60 }, (_, i) => `case-${i}`)
        await Promise.all(
          cases.flatMap((caseId, i) => [
            saveRating(one, { runId: 'r1', set: 'qa', caseId, rater: 'ana', dimension: 'correctness', score: 1 + (i % 5) }),
            saveRating(two, { runId: 'r1', set: 'qa', caseId, rater: 'ben', dimension: 'correctness', score: 1 + ((i + 1) % 5) }),
          ]),
        )
        const stored = await readRatings(one, { runId: 'r1', set: 'qa' })
        expect(stored.length).toBe(120)
        expect(stored.filter((r) => r.rater === 'ana').length).toBe(60)
        expect(new Map(stored.filter((r) => r.rater === 'ben').map((r) => [r.caseId, r.score])).get('case-7')).toBe(1 + (8 % 5))
      } finally {
        await one.close()
        await two.close()
      }
    })

    test('the JSONL export reads back through the agreement API to the same ratings', async () => {
      const { target, dir } = await fx.fresh()
      const store = await HistoryStore.open(target, { root: dir, write: true })
      try {
        const scores: Record<string, [number, number]> = { q1: [5, 5], q2: [1, 2], q3: [4, 4], q4: [3, 2] }
        for (const [caseId, [a, b]] of Object.entries(scores)) {
          await saveRating(store, { runId: 'r1', set: 'qa', caseId, rater: 'ana', dimension: 'correctness', score: a })
          await saveRating(store, { runId: 'r1', set: 'qa', caseId, rater: 'ben', dimension: 'correctness', score: b })
          await saveRating(store, { runId: 'r1', set: 'qa', caseId, rater: 'ana', dimension: 'preference', otherRunId: 'r0', choice: 'a', shownFirst: 'r0' })
        }
        const direct = await readRatings(store, { runId: 'r1', set: 'qa' })
        const parsed = parseRatings(ratingsJsonl(direct), { format: 'jsonl', source: 'export.jsonl' })
        expect(parsed.scores).toEqual(direct.map((r) => ({ item: r.caseId, rater: r.rater, dimension: 'correctness', score: r.score })))
        const kappa = agreementReport(parsed.scores).details.dimensions[0]?.pairwiseKappa[0]?.value
        expect(kappa).toBe(
          agreementReport(direct.map((r) => ({ item: r.caseId, rater: r.rater, dimension: r.dimension, score: r.score as number }))).details.dimensions[0]?.pairwiseKappa[0]
            ?.value,
        )
        const pairs = parseRatings(ratingsJsonl(await readRatings(store, { runId: 'r1', set: 'qa', otherRunId: 'r0' })), { format: 'jsonl' })
        expect(pairs.comparisons).toEqual(Object.keys(scores).map((item) => ({ item, rater: 'ana', a: 'r1', b: 'r0', winner: 'a' })))
      } finally {
        await store.close()
      }
    })
  })
}
