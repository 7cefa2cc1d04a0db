#!/usr/bin/env node
// `npm run bench`: throughput of every metric family, measured in one warm Node process against the
// built package (dist/), printed as a table and written to bench/results/latest.json.
//
//   npm run bench                 # generation, retrieval, matcher calls, embeddings
//   npm run bench -- --trec       # also the whole-process trec CLI on the 250 MB / 350 MB workloads
//   npm run bench -- --quick      # 2,000 generation pairs instead of 20,000
//   npm run bench -- --python     # also same-session ratios against the Python references: sacrebleu 2.6.0
//                                 # (bench/sacrebleu-side-by-side.mjs, $SACREBLEU_PYTHON or python3), rouge-score 0.1.2
//                                 # (bench/rouge-side-by-side.mjs, $ROUGE_PYTHON or Debian's python3) and NLTK METEOR
//                                 # (bench/python-side-by-side.mjs, Debian python3-nltk); ~5 minutes
//
// Speed is measured here, never asserted in tests. Reference speeds of the Python tools on the same
// 2-core machine are listed next to ours (from ../shared/golden/README.md and the issues) for orientation
// only: they were timed in another session, so dividing ours by them is not a measured speed-up. The
// --python rows are measured ratios: the Python reference and ours run one after the other in this session.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { spawnSync } from 'node:child_process'
import { generatePairs, mulberry32 } from './gen-generation.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const args = new Set(process.argv.slice(2))
// $RAG_MATCHERS_DIST: another build of the package (e.g. `npx tsup --out-dir <dir> --no-dts`) instead of dist/
const dist = process.env.RAG_MATCHERS_DIST ?? join(root, 'dist')
const lib = await import(pathToFileURL(join(dist, 'src', 'index.js')).href).catch(() => {
  console.error('bench: dist/ is missing; run `npm run build` first (npm run bench does it for you).')
  process.exit(2)
})
const matchers = await import(pathToFileURL(join(dist, 'runners', 'matchers.js')).href)

const rows = []
let peakRss = 0
const sampleRss = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss))
const sampler = setInterval(sampleRss, 20)

/** A Python timing recorded in another session, and the throughput 15× it would take (no ratio is computed). */
function python(pairsPerSecond, tool) {
  const f = (v) => v.toLocaleString('en-US')
  return `${f(pairsPerSecond)} (${tool}); 15× = ${f(15 * pairsPerSecond)}`
}

function record(group, name, value, unit, reference) {
  rows.push({ group, name, value, unit, ...(reference ? { reference } : {}) })
}

/** Runs fn over items after a warm-up pass, returns items per second (median of 3). */
function throughput(items, fn, warm = Math.min(2_000, items.length)) {
  for (let i = 0; i < warm; i += 1) fn(items[i], i)
  const rates = []
  for (let r = 0; r < 3; r += 1) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < items.length; i += 1) fn(items[i], i)
    const s = Number(process.hrtime.bigint() - t0) / 1e9
    rates.push(items.length / s)
    sampleRss()
  }
  return rates.sort((a, b) => a - b)[1]
}

// ---------------------------------------------------------------- generation
const sharedWorkload = join(root, '..', 'shared', 'golden', 'bench', 'generation_workload.json')
let pairs
let workloadName
if (existsSync(sharedWorkload)) {
  pairs = JSON.parse(readFileSync(sharedWorkload, 'utf8')).pairs
  workloadName = 'shared/golden/bench/generation_workload.json'
} else {
  pairs = generatePairs()
  workloadName = 'bench/gen-generation.mjs (seed 424242)'
}
if (args.has('--quick')) pairs = pairs.slice(0, 2_000)
const hyps = pairs.map((p) => p.hypothesis)
const refs = pairs.map((p) => p.reference)
console.log(`generation workload: ${pairs.length} pairs from ${workloadName}`)

/**
 * Times whole-corpus calls (the workload is one corpus): pairs per second, median of 5, after one warm-up call on
 * the whole corpus (as the warm-up pass of the per-pair rows; the first full calls still tier up the JIT).
 */
function corpusRate(fn) {
  fn(hyps, [refs])
  const times = []
  for (let r = 0; r < 5; r += 1) {
    const t0 = process.hrtime.bigint()
    fn(hyps, [refs])
    times.push(Number(process.hrtime.bigint() - t0) / 1e9)
    sampleRss()
  }
  return pairs.length / times.sort((a, b) => a - b)[2]
}
record('generation', 'corpus BLEU (sacrebleu defaults)', corpusRate(lib.corpusBleu), 'pairs/s', python(8_028, 'sacrebleu'))
record('generation', 'corpus chrF (sacrebleu defaults)', corpusRate(lib.corpusChrf), 'pairs/s', 'no recorded Python timing')
record(
  'generation',
  'sentence BLEU',
  throughput(pairs, (p) => lib.sentenceBleu(p.hypothesis, p.reference)),
  'pairs/s',
  python(9_403, 'sacrebleu'),
)
record(
  'generation',
  'sentence chrF',
  throughput(pairs, (p) => lib.sentenceChrf(p.hypothesis, p.reference)),
  'pairs/s',
)
record(
  'generation',
  'ROUGE-L with stemming',
  throughput(pairs, (p) => lib.rougeScore(p.hypothesis, p.reference, { types: ['rougeL'], stemmer: true })),
  'pairs/s',
  python(3_504, 'rouge-score'),
)
record(
  'generation',
  'METEOR (WordNet synonyms)',
  throughput(pairs, (p) => lib.meteorScore(p.hypothesis, p.reference)),
  'pairs/s',
  python(4_374, 'NLTK'),
)
// guarded so the same script can time an older build (RAG_MATCHERS_DIST) that has no TER
if (typeof lib.sentenceTer === 'function') {
  record(
    'generation',
    'sentence TER (tercom, defaults)',
    throughput(pairs, (p) => lib.sentenceTer(p.hypothesis, p.reference)),
    'pairs/s',
    'no recorded Python timing',
  )
  record('generation', 'corpus TER (tercom, defaults)', corpusRate(lib.corpusTer), 'pairs/s', 'no recorded Python timing')
}

// ---------------------------------------------------------------- retrieval
const rand = mulberry32(7)
const queries = Array.from({ length: 10_000 }, (_, q) => {
  const retrieved = Array.from({ length: 100 }, (_, i) => `q${q}d${Math.floor(rand() * 200)}x${i}`)
  const relevant = [retrieved[Math.floor(rand() * 100)], `q${q}-unretrieved`]
  return { id: `q${q}`, retrieved, relevant }
})
{
  lib.evaluateRetrieval(queries.slice(0, 500), { k: 10 })
  const t0 = process.hrtime.bigint()
  lib.evaluateRetrieval(queries, { k: 10 })
  const s = Number(process.hrtime.bigint() - t0) / 1e9
  record('retrieval', 'evaluateRetrieval, k=10 (100 docs/query)', queries.length / s, 'queries/s')
}

// ---------------------------------------------------------------- matchers
const ctx = {
  isNot: false,
  promise: '',
  utils: { matcherHint: (n) => n, printReceived: String, printExpected: String },
}
const evalSet = queries.slice(0, 10)
const answers = pairs.slice(0, 10).map((p, i) => ({ id: `a${i}`, answer: p.hypothesis, reference: p.reference }))
record(
  'matchers',
  'toHaveNdcgAtK on a 10-query eval set',
  throughput(Array(20_000).fill(evalSet), (s) => matchers.toHaveNdcgAtK.call(ctx, s, 10, 0)),
  'calls/s',
)
record(
  'matchers',
  'toScoreRougeLAbove on a 10-answer eval set',
  throughput(Array(5_000).fill(answers), (s) => matchers.toScoreRougeLAbove.call(ctx, s, 0)),
  'calls/s',
)
{
  // eval-set BLEU/chrF on 1,000 cases: the matcher (call + failure message with its per-case table),
  // and the metric work before (corpus + sentence per case) vs after (one pass), see eval-set-bench.mjs
  const { benchEvalSet } = await import(pathToFileURL(join(here, 'eval-set-bench.mjs')).href)
  const { rows: evalRows } = await benchEvalSet({ matchers, pairs, cases: 1_000, reps: 9 })
  for (const row of evalRows) record('matchers', row.name.trim(), 1_000 / (row.ms / 1_000), 'cases/s', `${row.ms.toFixed(1)} ms per call`)
  sampleRss()
}

// ---------------------------------------------------------------- embeddings (the generated tiny model)
if (existsSync(join(here, 'embeddings-bench.mjs'))) {
  try {
    const { benchEmbeddings } = await import(pathToFileURL(join(here, 'embeddings-bench.mjs')).href)
    for (const row of await benchEmbeddings()) record('embeddings', row.name, row.value, row.unit)
  } catch (error) {
    record('embeddings', `not measured: ${error.message.split('\n')[0]}`, Number.NaN, '')
  }
}

clearInterval(sampler)
sampleRss()
const inProcessPeak = Math.max(peakRss, process.resourceUsage().maxRSS * 1024)

// ---------------------------------------------------------------- trec CLI (whole process)
if (args.has('--trec') && existsSync(join(here, 'trec-bench.mjs'))) {
  const result = spawnSync(process.execPath, [join(here, 'trec-bench.mjs'), '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    for (const row of JSON.parse(result.stdout.trim().split('\n').pop())) record('trec CLI', row.name, row.value, row.unit, row.reference)
  } catch {
    record('trec CLI', 'not measured (see output above)', Number.NaN, '')
  }
}

// ---------------------------------------------------------------- same session against the Python references
/** Runs one side-by-side script with --json and records its rows (`tool`: the reference's name in the row). */
function sideBySide(script, tool) {
  const result = spawnSync(process.execPath, [join(here, script), '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const measured = JSON.parse(result.stdout.trim().split('\n').pop())
    if (measured.length === 0) record('vs Python', `not measured: ${tool} not available (see output above)`, Number.NaN, '')
    for (const row of measured) {
      const f = (v) => Math.round(v).toLocaleString('en-US')
      const theirs = row.python ?? row.sacrebleu
      record(
        'vs Python',
        `${row.task} ÷ ${tool}, same session (${row.pairs} pairs)`,
        row.ratio,
        '×',
        `${tool} ${f(theirs)}, ours ${f(row.ours)} pairs/s; target ${row.target}×: ${row.met ? 'met' : 'NOT met'}${row.mismatches > 0 ? `; ${row.mismatches} scores DIFFER` : ''}`,
      )
    }
  } catch {
    record('vs Python', `not measured: ${tool} (see output above)`, Number.NaN, '')
  }
}
if (args.has('--python')) {
  sideBySide('sacrebleu-side-by-side.mjs', 'sacrebleu 2.6.0')
  sideBySide('rouge-side-by-side.mjs', 'rouge-score 0.1.2')
  sideBySide('python-side-by-side.mjs', 'NLTK METEOR')
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`
const fmt = (v) => (!Number.isFinite(v) ? 'n/a' : v < 100 ? v.toFixed(2) : Math.round(v).toLocaleString('en-US'))
const width = Math.max(...rows.map((r) => r.name.length))
console.log(`\nmachine: ${machine}\n`)
// The reference column holds Python timings recorded in another session; they are not a same-run comparison,
// so no ratio is computed from them. Measured ratios come from the side-by-side scripts (the 'vs Python' rows,
// with --python).
console.log(
  `${'group'.padEnd(11)} ${'measure'.padEnd(width)} ${'ours'.padStart(12)}  unit        reference (Python rows: recorded in another session, not comparable; 'vs Python': same session)`,
)
for (const r of rows) console.log(`${r.group.padEnd(11)} ${r.name.padEnd(width)} ${fmt(r.value).padStart(12)}  ${r.unit.padEnd(10)}  ${r.reference ?? ''}`)
console.log(`\npeak RSS of the in-process benchmarks: ${(inProcessPeak / 2 ** 20).toFixed(0)} MiB`)

const outDir = join(here, 'results')
mkdirSync(outDir, { recursive: true })
const out = { date: new Date().toISOString(), machine, workload: workloadName, pairs: pairs.length, peakRssBytes: inProcessPeak, rows }
writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(out, null, 2)}\n`)
console.log(`results written to ${join('bench', 'results', 'latest.json')}`)
