#!/usr/bin/env node
// Same-session speed ratio against sacrebleu 2.6.0 itself (the version the golden BLEU, chrF and TER values come
// from), for corpus/sentence BLEU, corpus/sentence chrF and corpus/sentence TER, all with sacrebleu's defaults.
// Both sides ran in the same session: for every task, sacrebleu and then rag-matchers run one after the other in this
// run, each in a fresh process, on the same pairs (the shared 20,000-pair workload when present, else the seeded
// generator's). Warm-up excluded, median of 3 passes; the scores are compared so that both sides compute the same
// thing (corpus tasks: the one score; sentence tasks: the first 500 scores; |diff| ≤ 1e-9, else exit 1).
// TER is slow in Python, so both TER tasks use the first 5,000 pairs on both sides (the output says so).
//
// sacrebleu is not packaged by Debian; on this machine class it installs from the local PyPI mirror that pip is
// configured with (/etc/pip.conf; retry warnings about pypi.org can be ignored), e.g. in a virtual environment:
//
//   python3 -m venv <venv> && <venv>/bin/pip install sacrebleu==2.6.0     # once
//   npm run build && node bench/sacrebleu-side-by-side.mjs --python <venv>/bin/python
//
// Options: --python PATH (default: $SACREBLEU_PYTHON, else python3 on PATH), --pairs N (default 20,000),
// --tasks corpus-bleu,sentence-bleu,corpus-chrf,sentence-chrf,sentence-ter,corpus-ter (default: all),
// --json (the rows as one JSON line on stdout, the log on stderr).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { JS_TIMING, PY_TIMING, runSide, sideBySideArgs, writePairs } from './side-by-side.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const { option, json, log, limit } = sideBySideArgs()

const TASKS = ['corpus-bleu', 'sentence-bleu', 'corpus-chrf', 'sentence-chrf', 'sentence-ter', 'corpus-ter']
const TER_PAIRS = 5_000
const TOLERANCE = 1e-9
const TARGET = 15

const python = option('--python') ?? process.env.SACREBLEU_PYTHON ?? 'python3'
const tasks =
  option('--tasks') === undefined
    ? TASKS
    : option('--tasks')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
const unknown = tasks.filter((t) => !TASKS.includes(t))
if (unknown.length > 0 || tasks.length === 0) {
  console.error(`bench: unknown task(s) ${unknown.join(', ') || '(none given)'}; known: ${TASKS.join(', ')}`)
  process.exit(2)
}

// Which sacrebleu (and numpy, python) the interpreter has; anything but sacrebleu 2.6.x is not measured.
const probe = spawnSync(
  python,
  [
    '-c',
    `import json, platform, sys
import sacrebleu
try:
    import numpy
    nv = numpy.__version__
except Exception:
    nv = None
print(json.dumps({"sacrebleu": sacrebleu.__version__, "numpy": nv, "python": platform.python_version(), "executable": sys.executable}))`,
  ],
  { encoding: 'utf8' },
)
let versions = null
try {
  if (probe.status === 0) versions = JSON.parse(probe.stdout.trim().split('\n').pop())
} catch {
  versions = null
}
if (!versions || !/^2\.6\./.test(versions.sacrebleu)) {
  log(
    `not measured: needs sacrebleu 2.6.0 (pip install sacrebleu==2.6.0)` +
      (versions ? `; ${python} has sacrebleu ${versions.sacrebleu}` : `; ${python} cannot import sacrebleu`),
  )
  if (json) console.log(JSON.stringify([]))
  process.exit(0)
}

const dist = join(root, 'dist', 'src', 'index.js')
if (!existsSync(dist)) {
  console.error('bench: dist/ is missing; run `npm run build` first')
  process.exit(2)
}

const dir = mkdtempSync(join(tmpdir(), 'rag-sacrebleu-'))
const { pairs, pairsFile, workload } = writePairs(dir, limit)

// Each side: argv = task, pairs file, number of pairs. Corpus tasks: one warm-up call on the whole corpus, then
// 3 timed calls (pairs / median seconds), the score of the warm-up call. Sentence tasks: a warm-up pass over the
// first 2,000 pairs, then 3 timed passes over all pairs (median pairs/s), then the first 500 scores.
const PY = `
import json, sys
import sacrebleu
from sacrebleu.metrics import TER
${PY_TIMING}
task, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
pairs = json.load(open(path, encoding="utf-8"))[:n]
hyps = [h for h, _ in pairs]
refs = [r for _, r in pairs]
ter = TER()
corpus = {
    "corpus-bleu": lambda: sacrebleu.corpus_bleu(hyps, [refs]).score,
    "corpus-chrf": lambda: sacrebleu.corpus_chrf(hyps, [refs]).score,
    "corpus-ter": lambda: ter.corpus_score(hyps, [refs]).score,
}
sentence = {
    "sentence-bleu": lambda h, r: sacrebleu.sentence_bleu(h, [r]).score,
    "sentence-chrf": lambda h, r: sacrebleu.sentence_chrf(h, [r]).score,
    "sentence-ter": lambda h, r: ter.sentence_score(h, [r]).score,
}
if task in corpus:
    fn = corpus[task]
    scores = [fn()]
    rate = time_calls(fn, len(pairs))
else:
    one = sentence[task]
    rate = time_pairs(one, pairs)
    scores = [one(h, r) for h, r in pairs[:500]]
print(json.dumps({"rate": rate, "scores": scores}))
`
// Ours, called as bench/run.mjs calls each metric.
const JS = `
import { readFileSync } from 'node:fs'
const lib = await import(process.argv[1])
const task = process.argv[2]
const pairs = JSON.parse(readFileSync(process.argv[3], 'utf8')).slice(0, Number(process.argv[4]))
const hyps = pairs.map(([h]) => h)
const refs = pairs.map(([, r]) => r)
const corpus = {
  'corpus-bleu': () => lib.corpusBleu(hyps, [refs]).value,
  'corpus-chrf': () => lib.corpusChrf(hyps, [refs]).value,
  'corpus-ter': () => lib.corpusTer(hyps, [refs]).score,
}
const sentence = {
  'sentence-bleu': (h, r) => lib.sentenceBleu(h, r).value,
  'sentence-chrf': (h, r) => lib.sentenceChrf(h, r).value,
  'sentence-ter': (h, r) => lib.sentenceTer(h, r).score,
}
${JS_TIMING}
let rate
let scores
if (task in corpus) {
  const fn = corpus[task]
  scores = [fn()]
  rate = timeCalls(fn, pairs.length)
} else {
  const one = sentence[task]
  rate = timePairs(one, pairs)
  scores = pairs.slice(0, 500).map(([h, r]) => one(h, r))
}
console.log(JSON.stringify({ rate, scores }))
`
const fmt = (v) => Math.round(v).toLocaleString('en-US')
const rows = []
const mismatches = []
try {
  const terNote = tasks.some((t) => t.endsWith('-ter')) && pairs.length > TER_PAIRS ? `; TER tasks: the first ${TER_PAIRS.toLocaleString('en-US')} pairs on both sides` : ''
  log(
    `sacrebleu ${versions.sacrebleu}, numpy ${versions.numpy ?? 'not installed'}, python ${versions.python} (${versions.executable}); ` +
      `rag-matchers dist/, node ${process.version}`,
  )
  log(
    `${pairs.length.toLocaleString('en-US')} pairs (${workload})${terNote}; same session, ` +
      `a fresh process per side and task, warm-up excluded, median of 3 passes (corpus tasks: a pass is one whole-corpus ` +
      `call); scores compared: corpus tasks the one score, sentence tasks the first 500 (|diff| ≤ ${TOLERANCE})`,
  )
  const width = Math.max(...tasks.map((t) => t.length))
  for (const task of tasks) {
    const n = task.endsWith('-ter') ? Math.min(TER_PAIRS, pairs.length) : pairs.length
    const py = runSide(python, ['-c', PY, task, pairsFile, String(n)])
    const js = runSide(process.execPath, ['--input-type=module', '-e', JS, pathToFileURL(dist).href, task, pairsFile, String(n)])
    let maxDiff = 0
    let bad = 0
    py.scores.forEach((v, i) => {
      const diff = Math.abs(v - js.scores[i])
      if (!(diff <= TOLERANCE)) {
        bad += 1
        const p = pairs[i]
        mismatches.push({ task, index: i, sacrebleu: v, ours: js.scores[i], ...(task.startsWith('sentence') ? { hypothesis: p.hypothesis, reference: p.reference } : {}) })
      }
      if (Number.isFinite(diff)) maxDiff = Math.max(maxDiff, diff)
    })
    if (js.scores.length !== py.scores.length) {
      bad += 1
      mismatches.push({ task, index: -1, sacrebleu: `${py.scores.length} scores`, ours: `${js.scores.length} scores` })
    }
    const ratio = js.rate / py.rate
    const row = {
      task,
      pairs: n,
      sacrebleu: py.rate,
      ours: js.rate,
      ratio,
      target: TARGET,
      met: ratio >= TARGET,
      scoresCompared: py.scores.length,
      mismatches: bad,
      maxAbsDiff: maxDiff,
    }
    rows.push(row)
    log(
      `${task.padEnd(width)}  sacrebleu ${fmt(py.rate).padStart(9)} pairs/s  ours ${fmt(js.rate).padStart(10)} pairs/s  ` +
        `ratio ${ratio.toFixed(1).padStart(5)}×  (${TARGET}× target: ${row.met ? 'met' : 'NOT met'})`,
    )
  }
  const compared = rows.reduce((a, r) => a + r.scoresCompared, 0)
  const maxAll = rows.reduce((a, r) => Math.max(a, r.maxAbsDiff), 0)
  log(`scores: ${compared} compared, ${mismatches.length} differing by more than ${TOLERANCE} (largest |diff| ${maxAll.toExponential(2)})`)
  for (const m of mismatches.slice(0, 20)) log(`  MISMATCH ${JSON.stringify(m)}`)
  if (mismatches.length > 20) log(`  … and ${mismatches.length - 20} more`)
  if (json) console.log(JSON.stringify(rows))
  if (mismatches.length > 0) process.exitCode = 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
