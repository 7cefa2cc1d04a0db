#!/usr/bin/env node
// Same-session speed ratio against rouge-score 0.1.2 (the version the golden ROUGE values come from): ROUGE-L
// with the Porter stemmer, per pair, `RougeScorer(['rougeL'], use_stemmer=True).score(reference, hypothesis)`
// against `rougeScore(hypothesis, reference, { types: ['rougeL'], stemmer: true })`. Both sides run in this
// session, each in a fresh process, on the same pairs (the shared 20,000-pair workload when present, else the
// seeded generator's); warm-up excluded, median of 3 passes. Every F-measure is compared (|diff| ≤ 1e-12, else
// exit 1) so that both sides compute the same thing.
//
// rouge-score is neither packaged by Debian nor on this machine class's PyPI mirror; it is pure Python, so a copy
// of its package folder (`rouge_score/`) on PYTHONPATH is enough, with its dependencies from Debian: NLTK 3.8 (the
// version of the golden ROUGE values; its Porter stemmer is part of the timing), absl, numpy and six:
//
//   apt-get install python3-nltk python3-absl python3-numpy python3-six     # once (as root)
//   PYTHONPATH=<folder holding rouge_score/> node bench/rouge-side-by-side.mjs
//
// Options: --python PATH (default: $ROUGE_PYTHON, else /usr/bin/python3), --pairs N (default 20,000),
// --json (the row as one JSON line on stdout, the log on stderr).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { JS_TIMING, PY_TIMING, runSide, sideBySideArgs, writePairs } from './side-by-side.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { option, json, log, limit } = sideBySideArgs()
const TOLERANCE = 1e-12
const TARGET = 15

const python = option('--python') ?? process.env.ROUGE_PYTHON ?? '/usr/bin/python3'

// rouge-score has no __version__; its setup.py version is not installed with a bare copy, so the probe checks
// the API this comparison uses and reports where the package was found
const probe = spawnSync(
  python,
  ['-c', 'import json, nltk, rouge_score; from rouge_score import rouge_scorer; print(json.dumps({"path": rouge_score.__file__, "nltk": nltk.__version__}))'],
  { encoding: 'utf8' },
)
let found = null
try {
  if (probe.status === 0) found = JSON.parse(probe.stdout.trim().split('\n').pop())
} catch {
  found = null
}
if (!found) {
  log(`not measured: ${python} cannot import rouge_score (put a copy of rouge-score 0.1.2's rouge_score/ on PYTHONPATH)`)
  if (json) console.log(JSON.stringify([]))
  process.exit(0)
}
const dist = join(root, 'dist', 'src', 'index.js')
if (!existsSync(dist)) {
  console.error('bench: dist/ is missing; run `npm run build` first')
  process.exit(2)
}

const PY = `
import json, sys
from rouge_score import rouge_scorer
${PY_TIMING}
pairs = json.load(open(sys.argv[1], encoding="utf-8"))
scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
def one(h, r):
    return scorer.score(r, h)["rougeL"].fmeasure
rate = time_pairs(one, pairs)
print(json.dumps({"rate": rate, "scores": [one(h, r) for h, r in pairs]}))
`
const JS = `
import { readFileSync } from 'node:fs'
const { rougeScore } = await import(process.argv[1])
const pairs = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const options = { types: ['rougeL'], stemmer: true }
const one = (h, r) => rougeScore(h, r, options).rougeL.value
${JS_TIMING}
const rate = timePairs(one, pairs)
console.log(JSON.stringify({ rate, scores: pairs.map(([h, r]) => one(h, r)) }))
`

const dir = mkdtempSync(join(tmpdir(), 'rag-rouge-'))
try {
  const { pairs, pairsFile, workload } = writePairs(dir, limit)
  const py = runSide(python, ['-c', PY, pairsFile])
  const js = runSide(process.execPath, ['--input-type=module', '-e', JS, pathToFileURL(dist).href, pairsFile])
  const differing = py.scores.filter((v, i) => !(Math.abs(v - js.scores[i]) <= TOLERANCE)).length + (py.scores.length === js.scores.length ? 0 : 1)
  const ratio = js.rate / py.rate
  const f = (v) => Math.round(v).toLocaleString('en-US')
  log(`ROUGE-L with stemming, ${pairs.length} pairs (${workload}), same session, fresh processes, median of 3 warm passes`)
  log(`  rouge-score (${found.path}, NLTK ${found.nltk}, ${python})  ${f(py.rate)} pairs/s`)
  log(`  rag-matchers (dist, node ${process.version})  ${f(js.rate)} pairs/s`)
  log(
    `  ratio ${ratio.toFixed(1)}× (${TARGET}× target: ${ratio >= TARGET ? 'met' : 'NOT met'}); F-measures differing by more than ${TOLERANCE}: ${differing} of ${py.scores.length}`,
  )
  const row = {
    task: 'rouge-l-stemmed',
    pairs: pairs.length,
    python: py.rate,
    ours: js.rate,
    ratio,
    target: TARGET,
    met: ratio >= TARGET,
    scoresCompared: py.scores.length,
    mismatches: differing,
  }
  if (json) console.log(JSON.stringify([row]))
  if (differing > 0) process.exitCode = 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
