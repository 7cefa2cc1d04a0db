// Issue #27: a folder on a read-only file system is named with its cause (EROFS), never as the ENOENT a
// recursive mkdir answers there (src/make-folder.ts); the report and the job summary are one warning line
// each and never fail the run. On a real read-only file system: a read-only bind mount of a temporary
// folder, made when this process may mount (root on Linux, as in the project's container); elsewhere the
// tests that need it are skipped, saying why. Runs under Vitest and Jest (test/jest/erofs.test.ts).
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildReport } from '../../src/report/model.js'
import { finishReport } from '../../src/report/output.js'
import { JUDGE_CACHE_FORMAT, judgeCache, judgeCacheKey, type JudgeCacheEntry } from '../../src/judge/cache.js'
import { HistoryStore } from '../../src/history/store.js'
import { LOCAL, withRunner } from '../helpers/baseline-runner.js'
import { failureOf } from '../helpers/failure.js'
import { assertionMaker } from './assertions.js'

/** A read-only bind mount of a fresh temporary folder, or why there is none. */
function readOnlyMount(): { base: string; ro: string } | { why: string } {
  if (process.platform !== 'linux') return { why: `bind mounts need Linux (this is ${process.platform})` }
  const base = mkdtempSync(join(tmpdir(), 'rag-erofs-'))
  const src = join(base, 'src')
  const ro = join(base, 'ro')
  mkdirSync(src)
  mkdirSync(ro)
  const r = spawnSync('mount', ['--bind', '-o', 'ro', src, ro], { encoding: 'utf8' })
  if (r.status !== 0) {
    rmSync(base, { recursive: true, force: true })
    return { why: `mount --bind -o ro is not allowed here (${(r.stderr || r.error?.message || `exit ${r.status}`).trim()})` }
  }
  try {
    writeFileSync(join(ro, 'probe'), '')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EROFS') return { base, ro }
  }
  spawnSync('umount', [ro])
  rmSync(base, { recursive: true, force: true })
  return { why: 'the bind mount was not read-only' }
}

const mount = readOnlyMount()
const onReadOnly = 'ro' in mount ? it : it.skip
const why = 'ro' in mount ? '' : ` (skipped: ${mount.why})`

afterAll(() => {
  if ('ro' in mount) {
    spawnSync('umount', [mount.ro])
    rmSync(mount.base, { recursive: true, force: true })
  }
})

const ro = (...parts: string[]) => join((mount as { ro: string }).ro, ...parts)
const a = assertionMaker({ describe: ['erofs'], test: 't', fullName: 'erofs t' })
const report = () => buildReport([a({ value: 1, setSize: 1, perCase: [{ id: 'q1', value: 1, pass: true }] })], { runner: 'vitest' })

describe(`a read-only file system${why}`, () => {
  onReadOnly('a report folder to create on it: one warning line naming the folder and EROFS, no report line', () => {
    const logged: string[] = []
    const warned: string[] = []
    finishReport(
      report(),
      ro('out', 'rag-report'),
      (t) => logged.push(t),
      { table: false },
      undefined,
      (w) => warned.push(w),
    )
    expect(warned).toEqual([`rag-matchers: cannot write the report to ${ro('out')}: read-only file system (EROFS); the run's result is unchanged`])
    expect(logged.join('')).not.toContain('rag-matchers report:')
  })

  onReadOnly('an existing report folder on it, and GITHUB_STEP_SUMMARY on it: one warning line each', () => {
    const warned: string[] = []
    finishReport(
      report(),
      ro(),
      () => undefined,
      { table: false },
      ro('summary.md'),
      (w) => warned.push(w),
    )
    expect(warned).toEqual([
      `rag-matchers: cannot write the report to ${ro('rag-report.json')}: read-only file system (EROFS); the run's result is unchanged`,
      `rag-matchers: GITHUB_STEP_SUMMARY=${ro('summary.md')} cannot be written (read-only file system (EROFS)): the summary was not appended`,
    ])
  })

  onReadOnly('a baseline folder on it: the Matcher error names the file and EROFS, with and without .not', () => {
    const cases = [{ id: 'q1', retrieved: ['a'], relevant: ['a'] }]
    const options = { metrics: ['mrr'], dir: ro('baselines'), onWrite: () => undefined }
    const message = withRunner(LOCAL, () => failureOf(() => expect(cases).toMatchMetricBaseline('qa', options)))
    expect(message).toMatch(
      new RegExp(`Matcher error: baseline "qa" cannot be written to ${ro('baselines')}/\\S+\\.json: EROFS \\(EROFS: read-only file system, mkdir '${ro('baselines')}'\\)`),
    )
    expect(withRunner(LOCAL, () => failureOf(() => expect(cases).not.toMatchMetricBaseline('qa', options)))).toContain('Matcher error')
  })

  onReadOnly('a history store to create on it: the error names the folder and EROFS, never ENOENT', async () => {
    const target = { kind: 'sqlite' as const, path: ro('hist', 'history.sqlite') }
    await expect(HistoryStore.open(target, { root: ro(), write: true })).rejects.toThrow(/^cannot create the folder of \S+history\.sqlite: .*EROFS/)
  })

  onReadOnly('a judge cache folder on it, to create or existing: the error names the folder and EROFS, never ENOENT', async () => {
    const request = { template: 'rubric.score@1', model: 'm', options: {}, schema: {}, messages: [{ role: 'user', content: 'x' }] }
    const entry = { format: JUDGE_CACHE_FORMAT, key: judgeCacheKey(request), ...request, reply: { content: '{}', value: {}, attempts: 1 } } as unknown as JudgeCacheEntry
    for (const dir of [ro('cache'), ro()]) {
      const write = judgeCache({ dir, mode: 'readwrite' }).write(entry)
      await expect(write).rejects.toThrow(
        `Judge cache folder ${dir}: cannot write ${join(dir, `${entry.key}.json`)}: read-only file system (EROFS); use mode 'read' or 'replay'`,
      )
    }
  })
})
