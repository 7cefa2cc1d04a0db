// The lock stress test of issue #14, in a file of its own because it takes a while (see the figures
// it prints): real child processes write into one baseline file through the owned lock.
import { fork } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readBaselineFile } from '../../../src/eval-set/baseline-file.js'
import { bundleBaselineFile } from './bundle-baseline-file.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-baselines-stress-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('no lost writes (real child processes, stale locks present)', () => {
  // The reproduction, scaled up: 8 processes × 50 locked writes into ONE file, 20 times, with
  // a stale lock and a stale break lock planted before they start and a 9th process that takes the lock
  // and "crashes" holding it 20 times during the run (so all waiters see a stale lock at once, again and
  // again). Each run must keep all 400 entries. The 0.1.0 lock (stat-then-unlink, unowned release) lost
  // entries in 3 of 20 runs of this scenario (21, 8 and 11 of 400) on the development machine.
  it('keeps every entry of 8 × 50 writes in 20 of 20 runs', async () => {
    const bundle = await bundleBaselineFile(dir)
    const script = fileURLToPath(new URL('./baseline-stress-writer.mjs', import.meta.url))
    const crasher = fileURLToPath(new URL('./baseline-stress-crasher.mjs', import.meta.url))
    const CRASHES = 20
    const RUNS = 20
    const WORKERS = 8
    const WRITES = 50
    const started = Date.now()
    const lost: number[] = []
    // tmpfs when there is one: the lock is under test, not the disk (an fsync costs ~8 ms on this CI disk)
    const root = existsSync('/dev/shm') ? mkdtempSync(join('/dev/shm', 'rag-lock-stress-')) : dir
    for (let runIndex = 0; runIndex < RUNS; runIndex++) {
      const folder = join(root, `run-${runIndex}`)
      mkdirSync(folder)
      const file = join(folder, 'shared.test.ts.json')
      const old = new Date(Date.now() - 60_000)
      for (const stale of [`${file}.lock`, `${file}.lock.break`]) {
        writeFileSync(stale, '4242 crashed long ago\n')
        utimesSync(stale, old, old)
      }
      const crashed = new Promise<void>((resolve, reject) => {
        const child = fork(crasher, [file, String(CRASHES)], { stdio: 'pipe' })
        child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`crasher exited with ${code}`))))
        child.once('error', reject)
      })
      const results = await Promise.all(
        Array.from(
          { length: WORKERS },
          (_, worker) =>
            new Promise<{ worker: number; written: string[] }>((resolve, reject) => {
              const child = fork(script, [bundle, file, String(worker), String(WRITES)], { stdio: 'pipe' })
              let stderr = ''
              child.stderr?.on('data', (d) => (stderr += String(d)))
              child.once('message', (m) => resolve(m as { worker: number; written: string[] }))
              child.once('exit', (code) => {
                if (code !== 0) reject(new Error(`writer ${worker} exited with ${code}: ${stderr}`))
              })
              child.once('error', reject)
            }),
        ),
      )
      await crashed
      const written = results.flatMap((r) => r.written).sort()
      expect(written).toHaveLength(WORKERS * WRITES)
      const kept = Object.keys(readBaselineFile(file)!.entries).sort()
      lost.push(written.filter((name) => !kept.includes(name)).length)
      expect(kept).toEqual(written)
      // no lock, break lock or temporary file is left behind (but a crash after the last write leaves its lock)
      const left = readdirSync(folder).filter((f) => !(f === 'shared.test.ts.json.lock' && readFileSync(join(folder, f), 'utf8').startsWith('crashed writer')))
      expect(left).toEqual(['shared.test.ts.json'])
    }
    if (root !== dir) rmSync(root, { recursive: true, force: true })
    expect(lost).toEqual(Array.from({ length: RUNS }, () => 0))
    // the figures for the closing note of issue #14
    console.info(
      `lock stress: ${RUNS} runs × ${WORKERS} processes × ${WRITES} writes, entries lost per run: ${lost.join(',')}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    )
    // about 45–55 s for the 20 runs on a 2-core machine at a load average of 2–7, 390 s at 18: the limit is for loaded runners
  }, 600_000)
})
