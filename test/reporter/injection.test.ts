// Hostile input, second round (issue #27): user text cannot forge terminal output, and a report or job
// summary that cannot be written never fails a run. End to end: test/fixtures/injection-suite run by
// Vitest and by Jest in child processes with the rag-matchers reporters; then the pieces on hand-made reports.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderMarkdown } from '../../src/report/markdown.js'
import { buildReport } from '../../src/report/model.js'
import { finishReport, fsCause } from '../../src/report/output.js'
import { baselineRow, formatSigned, formatValue, renderTable } from '../../src/report/table.js'
import { hasUnsafe, terminalSafe, terminalSafeLines } from '../../src/text/terminal-safe.js'
import { FORGED } from '../fixtures/injection-suite/cases.js'
import { assertionMaker } from './assertions.js'
import { bundleJestReporter, repo } from './fixture-runs.js'

const SLOW = 240_000
const dir = join(repo, 'test/fixtures/injection-suite')
const bins = { vitest: join(repo, 'node_modules/vitest/vitest.mjs'), jest: join(repo, 'node_modules/jest/bin/jest.js') }

interface Run {
  status: number | null
  output: string
}

let tmp: string
let jestReporter: string
const runs: Record<string, Run> = {}

/** One fixture run without colours, without history, with nothing of the parent's reporter environment. */
function run(runner: 'vitest' | 'jest', files: string[], env: Record<string, string>): Run {
  const clean: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VITEST') || k.startsWith('RAG_') || k.startsWith('GITHUB_') || k === 'TEST' || k === 'NODE_OPTIONS' || k === 'JEST_WORKER_ID') continue
    clean[k] = v
  }
  const config = join(dir, runner === 'vitest' ? 'vitest.config.ts' : 'jest.config.cjs')
  const args = runner === 'vitest' ? [bins.vitest, 'run', '--config', config, ...files] : [bins.jest, '--config', config, files.join('|')]
  const r = spawnSync(process.execPath, args, {
    cwd: repo,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...clean,
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      CI: 'true',
      RAG_MATCHERS_HISTORY: 'off',
      RAG_FIXTURE_CACHE: join(tmp, `${runner}-cache`),
      ...(runner === 'jest' ? { RAG_FIXTURE_JEST_REPORTER: jestReporter } : {}),
      ...env,
    },
  })
  if (r.error) throw r.error
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` }
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rag-injection-'))
  jestReporter = bundleJestReporter(tmp)
  const summaryDir = join(tmp, 'summary-folder')
  mkdirSync(summaryDir)
  const blocker = join(tmp, 'a-file')
  writeFileSync(blocker, 'not a folder')
  for (const runner of ['vitest', 'jest'] as const) {
    runs[`${runner}-hostile`] = run(runner, ['hostile', 'passing'], { RAG_FIXTURE_OUT: join(tmp, `${runner}-out`), GITHUB_STEP_SUMMARY: join(tmp, `${runner}-summary.md`) })
    runs[`${runner}-folder`] = run(runner, ['passing'], { RAG_FIXTURE_OUT: join(tmp, `${runner}-out2`), GITHUB_STEP_SUMMARY: summaryDir })
    runs[`${runner}-blocked`] = run(runner, ['passing'], { RAG_FIXTURE_OUT: join(blocker, 'rag-report'), GITHUB_STEP_SUMMARY: summaryDir })
  }
}, SLOW)

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

describe.each(['vitest', 'jest'] as const)('%s with the rag-matchers reporter', (runner) => {
  it('prints hostile ids, set names and test labels with visible escapes: no ESC, no CR, no forged line', () => {
    const { status, output } = runs[`${runner}-hostile`] as Run
    expect(status).toBe(1)
    // the runner's colours are off (NO_COLOR, FORCE_COLOR=0): any ESC would be ours
    expect(output).not.toContain('\u001b')
    expect(output).not.toContain('\r')
    expect(hasUnsafe(output.replace(/\n/g, ''))).toBe(false)
    expect(output).not.toMatch(new RegExp(`^\\s*${FORGED}`, 'm'))
    // the failure message shows the ids escaped
    expect(output).toContain(`q1\\x1b[2J\\x1b[H`)
    expect(output).toContain(`q2\\r${FORGED}`)
    expect(output).toContain(`q3\\n${FORGED}`)
    expect(output).toContain(`q4\\u2028${FORGED}\\u202e`)
    expect(output).toContain(`q5\\x9b2J\\x85${FORGED}`)
    // and so does the table
    expect(output).toContain(`Eval set "nimbus\\x1b[2J\\r\\n${FORGED}" (hostile.suite.ts) · 5 cases · FAIL`)
    expect(output).toContain('rag-matchers: 3 assertions in 2 files, 1 passed, 2 failed · 2 eval sets')
    // the job summary (Markdown) already neutralised them: still no line of its own
    const md = readFileSync(join(tmp, `${runner}-summary.md`), 'utf8')
    expect(md).not.toMatch(new RegExp(`^\\s*${FORGED}`, 'm'))
    expect(md).not.toContain('\u001b')
  })

  it('GITHUB_STEP_SUMMARY naming a folder: one warning line, the report written, exit code 0', () => {
    const { status, output } = runs[`${runner}-folder`] as Run
    expect(output).not.toContain('EISDIR:')
    expect(output).toContain(`rag-matchers: GITHUB_STEP_SUMMARY=${join(tmp, 'summary-folder')} is a directory, not a file: the summary was not appended`)
    expect(output.split('\n').filter((l) => l.includes('GITHUB_STEP_SUMMARY')).length).toBe(1)
    expect(output).toContain(`rag-matchers report: ${join(tmp, `${runner}-out2`, 'rag-report.html')}`)
    expect(readFileSync(join(tmp, `${runner}-out2`, 'rag-report.json'), 'utf8')).toContain('"passed": 1')
    expect(status).toBe(0)
  })

  it('a report folder that cannot be created: one warning line with the cause, exit code 0', () => {
    const { status, output } = runs[`${runner}-blocked`] as Run
    expect(output).toContain(
      `rag-matchers: cannot write the report to ${join(tmp, 'a-file', 'rag-report')}: a part of the path is a file, not a folder (ENOTDIR); the run's result is unchanged`,
    )
    expect(output).toContain('is a directory, not a file: the summary was not appended')
    expect(output).not.toContain('rag-matchers report:')
    expect(status).toBe(0)
  })
})

describe('terminalSafe', () => {
  it('shows every control, separator and bidi character as a visible escape and keeps the rest', () => {
    expect(terminalSafe('a\u001b[2Jb\r\n\tc\u0000\u0007\u007f\u0085\u009b\u2028\u2029\u202a\u202e\u2066\u2069')).toBe(
      'a\\x1b[2Jb\\r\\n\\tc\\0\\x07\\x7f\\x85\\x9b\\u2028\\u2029\\u202a\\u202e\\u2066\\u2069',
    )
    expect(terminalSafe('Ünïcödé 日本語 🎉 — ≥ 0.8')).toBe('Ünïcödé 日本語 🎉 — ≥ 0.8')
    expect(hasUnsafe(terminalSafe('\u001b\n\u202e'))).toBe(false)
  })

  it('in a multi-line text, keeps the line feeds of the layout and the runner colour codes it is given', () => {
    const red = '\u001b[31m'
    const reset = '\u001b[39m'
    expect(terminalSafeLines(`x = ${red}0.5${reset}\n  id\u001b[2J\r`, [red, reset])).toBe(`x = ${red}0.5${reset}\n  id\\x1b[2J\\r`)
    expect(terminalSafeLines(`${red}x`, [])).toBe('\\x1b[31mx')
  })
})

const a = assertionMaker({ describe: ['hostile'], test: 'set-level', fullName: 'hostile > set-level' })

describe('renderTable on hostile text', () => {
  it('escapes set names, test names, metric labels, case ids, file names and error texts', () => {
    const forged = `\n${FORGED}`
    const report = buildReport(
      [
        a({
          set: `set\u001b[2J${forged}`,
          metric: `recall\r${FORGED}`,
          value: 0.5,
          pass: false,
          outcome: false,
          setSize: 2,
          perCase: [
            { id: `q1\u001b[31m${forged}`, value: 0, pass: false },
            { id: 'q2', value: 1, pass: true },
          ],
        }),
        a({ file: `other\u001b[H.test.ts`, test: `answers\u001b[2K${FORGED}`, fullName: 'x', metric: 'BLEU', value: 10, threshold: 20, pass: false, outcome: false }),
      ],
      { runner: 'vitest', run: { tests: 3, failedTests: 3, failedOutside: [{ file: `f${forged}.ts`, test: `t${forged}`, error: `boom\u001b[2J${forged}` }], fileErrors: [] } },
    )
    const text = renderTable(report)
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/)
    expect(text).not.toMatch(new RegExp(`^\\s*${FORGED}`, 'm'))
    expect(text).toContain(`Eval set "set\\x1b[2J\\n${FORGED}"`)
    expect(text).toContain(`q1\\x1b[31m\\n${FORGED} 0.0000`)
    expect(text).toContain(`recall\\r${FORGED}`)
    expect(text).toContain(`Assertions in other\\x1b[H.test.ts`)
    expect(text).toContain(`f\\n${FORGED}.ts › t\\n${FORGED}`)
  })
})

describe('NaN and Infinity are never printed', () => {
  it('prints n/a with the reason in values, deltas and p-values', () => {
    expect(formatValue(Number.NaN, 4)).toBe('n/a (not a number)')
    expect(formatValue(Infinity, 4)).toBe('n/a (infinite)')
    expect(formatValue(-Infinity, 4)).toBe('n/a (negative infinite)')
    expect(formatValue(null, 4)).toBe('n/a')
    expect(formatSigned(Number.NaN, 4)).toBe('n/a (not a number)')
    expect(baselineRow({ metric: 'recall@5', baseline: 0.8, current: Infinity, delta: Infinity, pValue: Number.NaN, status: 'regressed' } as never)).toEqual([
      'recall@5',
      '0.8000',
      'n/a (infinite)',
      'n/a (infinite)',
      'n/a (not a number)',
      'regressed',
    ])
  })

  it('in the table and the Markdown of a report holding them', () => {
    const report = buildReport([a({ set: 'numbers', value: 0.5, setSize: 1, perCase: [{ id: 'q1', value: 0.5, pass: true }] })], { runner: 'vitest' })
    const set = report.evalSets[0] as (typeof report.evalSets)[number]
    const hacked = {
      ...report,
      evalSets: [
        {
          ...set,
          metrics: set.metrics.map((m) => ({ ...m, value: Number.NaN, baseline: { mean: Infinity, delta: Number.NaN } })),
          baselines: [{ metric: 'recall', baseline: 0.5, current: 0.4, delta: -0.1, pValue: Number.NaN, status: 'regressed' }],
        },
      ],
    } as unknown as typeof report
    for (const text of [renderTable(hacked), renderMarkdown(hacked)]) {
      expect(text).not.toMatch(/NaN|Infinity/)
      expect(text).toContain('n/a (not a number)')
    }
  })
})

describe('finishReport never fails the run', () => {
  it('warns once for a summary path that is a folder, and for a report folder that cannot be created', () => {
    const base = mkdtempSync(join(tmpdir(), 'rag-injection-unit-'))
    try {
      const report = buildReport([a({ value: 1, setSize: 1, perCase: [{ id: 'q1', value: 1, pass: true }] })], { runner: 'vitest' })
      const logged: string[] = []
      const warned: string[] = []
      writeFileSync(join(base, 'file'), '')
      const paths = finishReport(
        report,
        join(base, 'file', 'out'),
        (t) => logged.push(t),
        { table: false },
        base,
        (w) => warned.push(w),
      )
      expect(paths?.html).toBe(join(base, 'file', 'out', 'rag-report.html'))
      expect(warned).toEqual([
        `rag-matchers: cannot write the report to ${join(base, 'file', 'out')}: a part of the path is a file, not a folder (ENOTDIR); the run's result is unchanged`,
        `rag-matchers: GITHUB_STEP_SUMMARY=${base} is a directory, not a file: the summary was not appended`,
      ])
      expect(logged).toEqual([])
    } finally {
      rmSync(base, { recursive: true, force: true })
    }
  })

  it('names the real cause of an fs error', () => {
    const error = (code: string) => Object.assign(new Error(`${code}: something`), { code })
    expect(fsCause(error('EROFS'))).toBe('read-only file system (EROFS)')
    expect(fsCause(error('EACCES'))).toBe('permission denied (EACCES)')
    expect(fsCause(error('EISDIR'))).toBe('it is a directory, not a file (EISDIR)')
    expect(fsCause(new Error('odd\u001b[2J'))).toBe('odd\\x1b[2J')
  })
})
