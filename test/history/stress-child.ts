// Child of the stress and crash tests (bundled by esbuild), on either backend: TARGET is a SQLite path or a postgres:// URL.
//   stress TARGET WORKER ROUNDS START_AT GAP   appends ROUNDS runs, each round at a shared start time
//   same TARGET WORKER START_AT                appends one report that every worker appends at the same moment; prints added/not added
//   crash TARGET                               starts appending a run and stops mid-write (prints "mid-write"), for the parent to kill
//   open TARGET                                opens the store for writing; prints the error, if any
import { HistoryError } from '../../src/history/errors.js'
import { HistoryStore } from '../../src/history/store.js'
import { parseTarget } from '../../src/history/target.js'
import { makeReport } from './make-report.js'

/** The report worker `worker` appends in round `round` of the stress test (the parent rebuilds it to compare). */
export const stressReport = (worker: number, round: number) =>
  makeReport({ sets: 3, metrics: 4, cases: 25, seed: 1000 * worker + round, createdAt: new Date(Date.UTC(2026, 0, 1, 0, round, worker)) })

export const sameReport = () => makeReport({ sets: 2, metrics: 3, cases: 10, seed: 424242 })

/** Sleeps to just before `at`, then busy-waits to it: every worker writes at the same moment, without 8 spinning processes starving the writers (and the server) of a 2-core machine meanwhile. */
const waitUntil = async (at: number) => {
  const sleep = at - Date.now() - 20
  if (sleep > 0) await new Promise((resolve) => setTimeout(resolve, sleep))
  while (Date.now() < at) {
    // The last milliseconds: spin, so the workers start together rather than at their timers' whims.
  }
}

export async function main(): Promise<void> {
  const [mode, text, ...rest] = process.argv.slice(2) as [string, string, ...string[]]
  const target = parseTarget(text, process.cwd())
  const open = () => HistoryStore.open(target, { root: process.cwd(), write: true })
  if (mode === 'stress') {
    const [worker, rounds, startAt, gap] = rest.map(Number) as [number, number, number, number]
    for (let round = 0; round < rounds; round++) {
      await waitUntil(startAt + round * gap)
      const store = await open()
      const { added } = await store.append(stressReport(worker, round), { source: 'vitest' })
      await store.close()
      if (!added) throw new Error(`worker ${worker} round ${round}: not added`)
    }
  } else if (mode === 'same') {
    const [, startAt] = rest.map(Number) as [number, number]
    const report = sameReport()
    await waitUntil(startAt)
    const store = await open()
    const { added } = await store.append(report, { source: 'import' })
    await store.close()
    process.stdout.write(added ? 'added\n' : 'not added\n')
  } else if (mode === 'crash') {
    const store = await open()
    const backend = store.backend
    const { run, runMany } = backend
    let inserts = 0
    // After the second INSERT of the run (the run row and some of its rows are in): say so, then hang until killed.
    const hangAfterSecond = async (sql: string) => {
      if (!/^\s*INSERT/i.test(sql) || ++inserts < 2) return
      process.stdout.write('mid-write\n')
      setInterval(() => {}, 60_000) // a handle, so the process waits for the kill instead of exiting
      await new Promise(() => {})
    }
    backend.run = async (sql, params) => {
      const n = await run.call(backend, sql, params)
      await hangAfterSecond(sql)
      return n
    }
    backend.runMany = async (sql, rows) => {
      await runMany.call(backend, sql, rows)
      await hangAfterSecond(sql)
    }
    await store.append(makeReport({ sets: 3, metrics: 4, cases: 25, seed: 77 }), { source: 'vitest' })
    process.stdout.write('completed\n')
    process.exit(0)
  } else if (mode === 'open') {
    try {
      await (await open()).close()
      process.stdout.write('opened\n')
    } catch (error) {
      process.stdout.write(`${error instanceof HistoryError ? '' : 'not a HistoryError: '}${(error as Error).message}\n`)
    }
  } else throw new Error(`unknown mode ${mode}`)
}
