#!/usr/bin/env node
// Same-session speed ratio against a Python reference that can be installed on this machine class: NLTK 3.8's
// METEOR (Debian's python3-nltk 3.8 with WordNet 3.0 from wordnet-base 1:3.0-37, the versions the golden METEOR
// values come from). Both sides run in a fresh process on the same 20,000-pair workload, warm-up excluded, median
// of 3 passes, one after the other in this run; the first 500 scores are compared so that both sides compute the
// same thing. sacrebleu 2.6.0 and rouge-score 0.1.2 have their own side-by-side scripts (bench/sacrebleu-side-by-side.mjs,
// bench/rouge-side-by-side.mjs); `npm run bench -- --python` runs all three.
//
//   apt-get install python3-nltk wordnet-base     # once (as root)
//   npm run build && node bench/python-side-by-side.mjs [--pairs N] [--json]
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { JS_TIMING, PY_TIMING, runSide, sideBySideArgs, writePairs } from './side-by-side.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const python = '/usr/bin/python3'
const wordnetDir = '/usr/share/wordnet'
const { json, log, limit } = sideBySideArgs()
const TARGET = 15

const nltk = spawnSync(python, ['-c', 'import nltk; print(nltk.__version__)'], { encoding: 'utf8' })
if (nltk.status !== 0 || !existsSync(join(wordnetDir, 'data.noun'))) {
  log('not measured: needs Debian python3-nltk and wordnet-base (apt-get install python3-nltk wordnet-base)')
  if (json) console.log(JSON.stringify([]))
  process.exit(0)
}

// NLTK's reader also opens `lexnames` (synset lexicographer file names, which METEOR never uses); Debian's
// wordnet-base does not ship it, so a folder of links to its files gets WordNet 3.0's standard list.
const dict = mkdtempSync(join(tmpdir(), 'rag-wordnet-'))
for (const f of readdirSync(wordnetDir)) if (/^(data|index)\.|\.exc$/.test(f)) symlinkSync(join(wordnetDir, f), join(dict, f))
const LEXNAMES = [
  'adj.all 3',
  'adj.pert 3',
  'adv.all 4',
  'noun.Tops 1',
  'noun.act 1',
  'noun.animal 1',
  'noun.artifact 1',
  'noun.attribute 1',
  'noun.body 1',
  'noun.cognition 1',
  'noun.communication 1',
  'noun.event 1',
  'noun.feeling 1',
  'noun.food 1',
  'noun.group 1',
  'noun.location 1',
  'noun.motive 1',
  'noun.object 1',
  'noun.person 1',
  'noun.phenomenon 1',
  'noun.plant 1',
  'noun.possession 1',
  'noun.process 1',
  'noun.quantity 1',
  'noun.relation 1',
  'noun.shape 1',
  'noun.state 1',
  'noun.substance 1',
  'noun.time 1',
  'verb.body 2',
  'verb.change 2',
  'verb.cognition 2',
  'verb.communication 2',
  'verb.competition 2',
  'verb.consumption 2',
  'verb.contact 2',
  'verb.creation 2',
  'verb.emotion 2',
  'verb.motion 2',
  'verb.perception 2',
  'verb.possession 2',
  'verb.social 2',
  'verb.stative 2',
  'verb.weather 2',
  'adj.ppl 3',
]
writeFileSync(join(dict, 'lexnames'), LEXNAMES.map((l, i) => `${String(i).padStart(2, '0')} ${l}\n`).join(''))

const { pairs, pairsFile, workload } = writePairs(dict, limit)

const PY = `
import json, sys
from nltk.corpus.reader.wordnet import WordNetCorpusReader
from nltk.translate.meteor_score import meteor_score
${PY_TIMING}
wn = WordNetCorpusReader(sys.argv[1], None)
pairs = json.load(open(sys.argv[2]))
def one(h, r):
    return meteor_score([r.split()], h.split(), wordnet=wn)
rate = time_pairs(one, pairs)
print(json.dumps({"rate": rate, "first": [one(h, r) for h, r in pairs[:500]]}))
`
const JS = `
import { readFileSync } from 'node:fs'
const { meteorScore } = await import(process.argv[1])
const pairs = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const one = (h, r) => meteorScore(h, r)
${JS_TIMING}
const rate = timePairs(one, pairs)
console.log(JSON.stringify({ rate, first: pairs.slice(0, 500).map(([h, r]) => one(h, r)) }))
`
const dist = join(root, 'dist', 'src', 'index.js')
if (!existsSync(dist)) {
  console.error('bench: dist/ is missing; run `npm run build` first')
  process.exit(2)
}
try {
  const py = runSide(python, ['-c', PY, dict, pairsFile])
  const js = runSide(process.execPath, ['--input-type=module', '-e', JS, pathToFileURL(dist).href, pairsFile])
  const mismatches = py.first.filter((v, i) => Math.abs(v - js.first[i]) > 1e-12).length
  const ratio = js.rate / py.rate
  log(`METEOR, ${pairs.length} pairs (${workload}), same session, fresh processes, median of 3 warm passes`)
  log(`  NLTK ${nltk.stdout.trim()} (Debian python3-nltk, ${python})  ${Math.round(py.rate).toLocaleString('en-US')} pairs/s`)
  log(`  rag-matchers (dist, node ${process.version})       ${Math.round(js.rate).toLocaleString('en-US')} pairs/s`)
  log(`  ratio ${ratio.toFixed(1)}× (${TARGET}× target: ${ratio >= TARGET ? 'met' : 'NOT met'}); first 500 scores differing by more than 1e-12: ${mismatches}`)
  if (json)
    console.log(
      JSON.stringify([{ task: 'meteor', pairs: pairs.length, python: py.rate, ours: js.rate, ratio, target: TARGET, met: ratio >= TARGET, scoresCompared: 500, mismatches }]),
    )
  if (mismatches > 0) process.exitCode = 1
} finally {
  rmSync(dict, { recursive: true, force: true })
}
