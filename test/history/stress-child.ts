// Child of the stress test (bundled by esbuild): appends `rounds` runs to one store, each round at a shared start time.
import { HistoryStore } from '../../src/history/store.js'
import { makeReport } from './make-report.js'

export async function main(): Promise<void> {
  const [file, worker, rounds, startAt, gap] = process.argv.slice(2).map((a, i) => (i === 0 ? a : Number(a))) as [string, number, number, number, number]
  for (let round = 0; round < rounds; round++) {
    const at = startAt + round * gap
    while (Date.now() < at) {
      // Busy-wait to the shared moment: every worker writes at once.
    }
    const store = await HistoryStore.open({ kind: 'sqlite', path: file }, { root: process.cwd(), write: true })
    const report = makeReport({ sets: 3, metrics: 4, cases: 25, seed: 1000 * worker + round, createdAt: new Date(Date.UTC(2026, 0, 1, 0, round, worker)) })
    const { added } = await store.append(report, { source: 'vitest' })
    await store.close()
    if (!added) throw new Error(`worker ${worker} round ${round}: not added`)
  }
}
