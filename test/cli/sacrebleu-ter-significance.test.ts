// `rag-matchers sacrebleu` with TER in --confidence and the paired tests, replaying sacrebleu 2.6.0's own
// command line as recorded by test/parity/fixtures/sacrebleu-extra/make_ter_significance.py: the same
// argv in a folder with the same file names (system names set the table's widths), compared byte for byte
// except the version in the signatures and the notes under a paired table (this library's wording, see
// docs/cli.md).
import { dirname } from 'node:path'
import { VERSION } from '../../src/version.js'
import { loadFixture } from '../parity/fixtures/load.js'
import { runCli } from './run-cli.js'
import { tempFiles } from './temp-files.js'
import { linesFile } from './text-fixtures.js'

interface Recorded {
  paired: Array<{ id: string; references: string[][]; systems: Array<{ name: string; hypotheses: string[] }> }>
  cli: { seed: number; runs: Array<{ argv: string[]; stdout: string }> }
}

const recorded = loadFixture<Recorded>('sacrebleu-extra/ter-significance.json')
const corpus = recorded.paired.find((c) => c.id === 'paired-corpus-1-default')!
const files = tempFiles('rag-sacrebleu-ter-sig-')
const folder = dirname(files.write('ref.txt', linesFile(corpus.references[0]!)))
for (const s of corpus.systems) files.write(`${s.name}.txt`, linesFile(s.hypotheses))

const cwd = process.cwd()
beforeAll(() => {
  process.chdir(folder)
  process.env.SACREBLEU_SEED = String(recorded.cli.seed)
})
afterAll(() => {
  process.chdir(cwd)
  delete process.env.SACREBLEU_SEED
  files.cleanup()
})

/** sacrebleu's output with this library's version. */
function ours(text: string): string {
  return text.replaceAll('version:2.6.0', `version:${VERSION}`).replaceAll('"version": "2.6.0"', `"version": "${VERSION}"`)
}

/** sacrebleu's text output without the notes between the table and the signature block. */
function withoutNotes(text: string): string {
  const table = text.indexOf('╛')
  const signatures = text.indexOf('-----------------\nMetric signatures')
  return table < 0 || signatures < 0 ? text : text.slice(0, table + 1) + '\n…\n' + text.slice(signatures)
}

test('the recording has the single-system --confidence and the paired runs with TER', () => {
  expect(recorded.cli.runs.map((r) => r.argv.join(' '))).toEqual([
    'ref.txt -i sys_better.txt -m ter --confidence',
    'ref.txt -i sys_better.txt -m ter --confidence -f text',
    'ref.txt -i sys_better.txt -m bleu chrf ter --confidence --confidence-n 300',
    'ref.txt -i sys_worse.txt -m bleu chrf ter -b',
    'ref.txt -i sys_better.txt -m bleu chrf ter -b --confidence',
    'ref.txt -i sys_better.txt -m bleu ter -b -f text --confidence -w 3',
    'ref.txt -i sys_worse.txt -m bleu chrf ter -f text --confidence',
    'ref.txt -i ref.txt -m ter --confidence',
    'ref.txt -i baseline.txt sys_better.txt sys_similar.txt sys_worse.txt -m bleu chrf ter --paired-bs',
    'ref.txt -i baseline.txt sys_better.txt sys_similar.txt sys_worse.txt -m ter --paired-bs -f text',
    'ref.txt -i baseline.txt sys_better.txt sys_similar.txt sys_worse.txt -m ter --paired-ar --paired-ar-n 2000',
    'ref.txt -i baseline.txt sys_better.txt sys_similar.txt sys_worse.txt -m bleu ter --paired-ar --paired-ar-n 2000 -f text',
    'ref.txt -i baseline.txt sys_better.txt sys_similar.txt sys_worse.txt -m ter --paired-bs --ter-normalized --ter-case-sensitive',
  ])
})

type Rows = Array<Record<string, unknown>>

/**
 * Paired JSON holds full-precision scores: BLEU's may differ in the last bits (exp/log against libm, the
 * README's 1e-9), so its numbers are compared to 1e-9 and the layout with them masked; chrF and TER exactly.
 */
function expectPairedJson(got: string, want: string): void {
  const mask = (text: string) => text.replace(/("BLEU": \{[^}]*\})/g, (m) => m.replace(/-?\d+\.\d+(e-?\d+)?/g, '#'))
  expect(mask(got)).toBe(mask(want))
  const g = JSON.parse(got) as Rows
  const w = JSON.parse(want) as Rows
  w.forEach((row, i) => {
    const bleu = row.BLEU as Record<string, number | null> | undefined
    if (bleu === undefined) return
    for (const [key, value] of Object.entries(bleu)) {
      const mine = (g[i]!.BLEU as Record<string, number | null>)[key]!
      if (value === null) expect(mine).toBeNull()
      else expect(Math.abs(mine - value), `${String(row.system)} BLEU ${key}`).toBeLessThanOrEqual(1e-9)
    }
  })
}

test.each(recorded.cli.runs.map((r) => ({ ...r, label: r.argv.join(' ') })))('sacrebleu $label', async ({ argv, stdout }) => {
  const out = await runCli(['sacrebleu', ...argv])
  expect([out.code, out.stderr]).toEqual([0, ''])
  const theirs = ours(stdout)
  const pairedJson = argv.some((a) => a.startsWith('--paired')) && !argv.includes('-f')
  if (pairedJson) expectPairedJson(out.stdout, theirs)
  else expect(withoutNotes(out.stdout)).toBe(withoutNotes(theirs))
})

test('rag-matchers ter --confidence prints what sacrebleu -m ter --confidence prints', async () => {
  const run = recorded.cli.runs[0]!
  const out = await runCli(['ter', ...run.argv.filter((a) => a !== '-m' && a !== 'ter')])
  expect([out.code, out.stderr]).toEqual([0, ''])
  expect(out.stdout).toBe(ours(run.stdout))
})
