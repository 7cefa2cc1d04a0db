// The packed form in a real store, on both backends: a run reads back as its JSON (also with ids and texts
// PostgreSQL's TEXT cannot hold as they are), a hand-edited report kept inline reads back too, and
// `history case` cuts a case's values out of the packed columns.
import { describe, expect, test } from 'vitest'
import { HistoryStore } from '../../src/history/store.js'
import type { RagReport } from '../../src/report/model.js'
import { BACKENDS, backendTitle, skipBackend, storeFixture } from '../helpers/history-backends.js'
import { variedReport } from './varied-report.js'

const json = (value: unknown) => JSON.stringify(value)
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** variedReport with a case id and texts holding NUL, a bidi control and an astral character. */
function hostileReport(): RagReport {
  const text = JSON.stringify(variedReport()).replaceAll('"q2"', '"q\\u00002\\u202e😀"').replaceAll('answer 1', 'answer\\u0000 1')
  return JSON.parse(text) as RagReport
}

for (const kind of BACKENDS) {
  describe.skipIf(skipBackend(kind))(backendTitle('packed runs in a store', kind), () => {
    const fx = storeFixture(kind)

    test('runs read back as their JSON: canonical, hostile text, hand-edited', async () => {
      const { target, dir } = await fx.fresh()
      const store = await HistoryStore.open(target, { root: dir, write: true })
      try {
        const edited = clone(variedReport(new Date('2026-02-03T04:05:07.000Z'))) as Record<string, any>
        edited.evalSets.find((s: { name: string }) => s.name === 'qa').cases[0].failing.push('edited')
        const reports = [variedReport(), hostileReport(), edited as RagReport]
        const ids: string[] = []
        for (const report of reports) {
          const { id, added } = await store.append(report, { source: 'import' })
          expect(added).toBe(true)
          ids.push(id)
        }
        for (const [i, id] of ids.entries()) expect(json(await store.readRun(id))).toBe(json(reports[i]))
        // The hostile case is found by its id, its values cut out of the packed columns.
        const qa = hostileReport().evalSets.find((s) => s.name === 'qa')
        const hostileId = 'q\u00002\u202e😀'
        const kase = qa?.cases.find((c) => c.id === hostileId)
        const points = await store.caseSeries('qa', kind === 'postgres' ? 'q\uFFFD2\u202e😀' : hostileId)
        expect(points).toHaveLength(1)
        expect(points[0]?.values).toEqual(Object.fromEntries(Object.entries(kase?.values ?? {}).map(([key, v]) => [qa?.metrics.find((m) => m.key === key)?.metric, v.value])))
        expect(points[0]?.failing).toEqual(kase?.failing)
      } finally {
        await store.close()
      }
    })
  })
}
