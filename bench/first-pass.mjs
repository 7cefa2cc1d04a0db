#!/usr/bin/env node
// First pass and warm passes of the generation metrics, ours against the Python references, measured the way a
// test file meets a metric: every figure comes from a FRESH process that imports the library (or the Python
// package), makes one tiny warm-up call (the first pair alone), then times
//   - the first pass: the whole workload once (what an eval set in a new Vitest/Jest worker pays), and
//   - the warm median: the median of 3 more passes over the same workload (what `npm run bench` quotes).
// Sides alternate task by task (ours, the reference, then ours-before when --before is given; the order is
// reversed on every other sitting) and the machine's 1-minute load average (os.loadavg) is recorded before and
// after every process. Scores are compared (every score of the first pass) so both sides compute the same thing.
//
//   npm run build && node bench/first-pass.mjs [options]
//
// Tasks (the workload is the shared 20,000-pair file when present, else bench/gen-generation.mjs's pairs):
//   corpus-bleu    corpusBleu(hyps, [refs])                        vs sacrebleu.corpus_bleu          (sacrebleu 2.6)
//   sentence-bleu  sentenceBleu(h, r) per pair                     vs sacrebleu.sentence_bleu
//   corpus-chrf    corpusChrf(hyps, [refs])                        vs sacrebleu.corpus_chrf
//   corpus-ter     corpusTer(hyps, [refs]) (--ter-pairs, 5,000)    vs sacrebleu TER().corpus_score
//   rouge-l        rougeScore(h, r, {types:['rougeL'], stemmer})  vs RougeScorer(['rougeL'], use_stemmer=True) (0.1.2)
//   meteor         meteorScore(h, r)                               vs NLTK 3.8 meteor_score + WordNet 3.0
// METEOR's warm-up call is also reported alone ("first call"): it loads WordNet (ours: inside the call; NLTK: the
// WordNetCorpusReader constructor plus the call).
//
// References: sacrebleu 2.6.0 through --sacrebleu-python (default $SACREBLEU_PYTHON, else python3); rouge-score 0.1.2
// as a copy of its rouge_score/ folder in --rouge-path (default $ROUGE_PATH) run by /usr/bin/python3 with Debian's
// NLTK; NLTK METEOR with Debian's python3-nltk 3.8 and wordnet-base (the setup of bench/python-side-by-side.mjs).
// A reference that cannot be run is reported as missing, with the reason, and our own first/warm figures are
// still measured.
//
// Options: --runs N (sittings, default 2), --tasks a,b (default all), --pairs N (default 20,000), --ter-pairs N
// (default 5,000), --ours DIR (our build, default dist/), --before DIR (another build of ours, e.g. the previous
// commit's, measured alternately as a third side), --no-reference (ours only), --json FILE (all figures),
// --markdown FILE (the table README shows). Speed is measured here, never asserted in tests.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median } from './median.mjs'
import { writePairs } from './side-by-side.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const argv = process.argv.slice(2)
const option = (name, fallback) => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : fallback
}
const positive = (name, fallback) => {
  const v = Number(option(name, fallback))
  if (!Number.isInteger(v) || v < 1) {
    console.error(`bench: ${name} needs a positive integer`)
    process.exit(2)
  }
  return v
}

const TASKS = ['corpus-bleu', 'sentence-bleu', 'corpus-chrf', 'corpus-ter', 'rouge-l', 'meteor']
const LABELS = {
  'corpus-bleu': 'corpus BLEU',
  'sentence-bleu': 'sentence BLEU',
  'corpus-chrf': 'corpus chrF',
  'corpus-ter': 'corpus TER',
  'rouge-l': 'ROUGE-L with stemming',
  meteor: 'METEOR',
}
const runs = positive('--runs', '2')
const limit = positive('--pairs', '20000')
const terPairs = positive('--ter-pairs', '5000')
const tasks = (option('--tasks') ?? TASKS.join(',')).split(',').filter(Boolean)
if (tasks.length === 0 || tasks.some((t) => !TASKS.includes(t))) {
  console.error(`bench: --tasks takes some of ${TASKS.join(', ')}`)
  process.exit(2)
}
const ours = resolve(option('--ours', join(root, 'dist')))
const before = option('--before') === undefined ? undefined : resolve(option('--before'))
for (const dir of [ours, before].filter(Boolean)) {
  if (!existsSync(join(dir, 'src', 'index.js'))) {
    console.error(`bench: ${dir}/src/index.js is missing; run \`npm run build\` (or build that tree) first`)
    process.exit(2)
  }
}
const withReference = !argv.includes('--no-reference')

// ---------------------------------------------------------------- the two sides' programs
// Both: argv = task, pairs file, number of pairs. One warm-up call on the first pair (as a one-pair corpus for the
// corpus tasks), then the first pass and 3 warm passes over all pairs; prints JSON with seconds and the first
// pass's scores.
const JS_SIDE = `
import { readFileSync } from 'node:fs'
const [url, task, file, n] = process.argv.slice(1)
const lib = await import(url)
const pairs = JSON.parse(readFileSync(file, 'utf8')).slice(0, Number(n))
const hyps = pairs.map(([h]) => h)
const refs = pairs.map(([, r]) => r)
const rougeOptions = { types: ['rougeL'], stemmer: true }
const corpus = {
  'corpus-bleu': (h, r) => [lib.corpusBleu(h, [r]).value],
  'corpus-chrf': (h, r) => [lib.corpusChrf(h, [r]).value],
  'corpus-ter': (h, r) => [lib.corpusTer(h, [r]).score],
}
const sentence = {
  'sentence-bleu': (h, r) => lib.sentenceBleu(h, r).value,
  'rouge-l': (h, r) => lib.rougeScore(h, r, rougeOptions).rougeL.value,
  meteor: (h, r) => lib.meteorScore(h, r).value,
}
const pass = task in corpus
  ? () => corpus[task](hyps, refs)
  : () => {
      const one = sentence[task]
      const scores = new Array(pairs.length)
      for (let i = 0; i < pairs.length; i++) scores[i] = one(pairs[i][0], pairs[i][1])
      return scores
    }
const warmup = task in corpus ? () => corpus[task]([hyps[0]], [refs[0]]) : () => sentence[task](hyps[0], refs[0])
const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}
let t = performance.now()
warmup()
const warmupSeconds = (performance.now() - t) / 1000
let c = cpu()
t = performance.now()
const scores = pass()
const firstSeconds = (performance.now() - t) / 1000
const firstCpu = cpu() - c
const warm = []
const warmCpu = []
for (let k = 0; k < 3; k++) {
  c = cpu()
  t = performance.now()
  pass()
  warm.push((performance.now() - t) / 1000)
  warmCpu.push(cpu() - c)
}
console.log(JSON.stringify({ setupSeconds: 0, warmupSeconds, firstSeconds, warm, firstCpu, warmCpu, scores }))
`
const PY_SIDE = `
import json, sys, time
task, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
pairs = json.load(open(path, encoding="utf-8"))[:n]
hyps = [h for h, _ in pairs]
refs = [r for _, r in pairs]
t = time.perf_counter()
if task in ("corpus-bleu", "corpus-chrf", "corpus-ter", "sentence-bleu"):
    import sacrebleu
    from sacrebleu.metrics import TER
    ter = TER()
    corpus = {
        "corpus-bleu": lambda h, r: [sacrebleu.corpus_bleu(h, [r]).score],
        "corpus-chrf": lambda h, r: [sacrebleu.corpus_chrf(h, [r]).score],
        "corpus-ter": lambda h, r: [ter.corpus_score(h, [r]).score],
    }
    one = lambda h, r: sacrebleu.sentence_bleu(h, [r]).score
elif task == "rouge-l":
    from rouge_score import rouge_scorer
    corpus = {}
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    one = lambda h, r: scorer.score(r, h)["rougeL"].fmeasure
else:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.translate.meteor_score import meteor_score
    corpus = {}
    wn = WordNetCorpusReader(sys.argv[4], None)
    one = lambda h, r: meteor_score([r.split()], h.split(), wordnet=wn)
setup = time.perf_counter() - t
if task in corpus:
    fn = corpus[task]
    passes = lambda: fn(hyps, refs)
    warmup = lambda: fn(hyps[:1], refs[:1])
else:
    passes = lambda: [one(h, r) for h, r in pairs]
    warmup = lambda: one(hyps[0], refs[0])
t = time.perf_counter()
warmup()
warmup_s = time.perf_counter() - t
c = time.process_time()
t = time.perf_counter()
scores = passes()
first = time.perf_counter() - t
first_cpu = time.process_time() - c
warm = []
warm_cpu = []
for _ in range(3):
    c = time.process_time()
    t = time.perf_counter()
    passes()
    warm.append(time.perf_counter() - t)
    warm_cpu.append(time.process_time() - c)
print(json.dumps({"setupSeconds": setup, "warmupSeconds": warmup_s, "firstSeconds": first, "warm": warm, "firstCpu": first_cpu, "warmCpu": warm_cpu, "scores": scores}))
`

// ---------------------------------------------------------------- which references can run here
const sacrebleuPython = option('--sacrebleu-python', process.env.SACREBLEU_PYTHON ?? 'python3')
const rougePath = option('--rouge-path', process.env.ROUGE_PATH)
const debianPython = '/usr/bin/python3'
const wordnetDir = '/usr/share/wordnet'

function probe(python, code, env) {
  const r = spawnSync(python, ['-c', code], { encoding: 'utf8', env: { ...process.env, ...env } })
  return r.status === 0 ? r.stdout.trim() : undefined
}

/** Per task: how to run the reference ({ python, env, name, tolerance }) or why it cannot run ({ missing }). */
function references(dict) {
  const out = {}
  const sacrebleu = probe(sacrebleuPython, 'import sacrebleu; print(sacrebleu.__version__)')
  for (const task of ['corpus-bleu', 'sentence-bleu', 'corpus-chrf', 'corpus-ter']) {
    out[task] =
      sacrebleu === undefined
        ? { missing: `sacrebleu cannot be imported by ${sacrebleuPython} (pass --sacrebleu-python)` }
        : !/^2\.6\./.test(sacrebleu)
          ? { missing: `${sacrebleuPython} has sacrebleu ${sacrebleu}, not 2.6` }
          : { python: sacrebleuPython, env: {}, name: `sacrebleu ${sacrebleu}`, tolerance: 1e-9 }
  }
  const nltk = probe(debianPython, 'import nltk; print(nltk.__version__)')
  const rougeEnv = rougePath === undefined ? undefined : { PYTHONPATH: resolve(rougePath) }
  const rouge = rougeEnv && probe(debianPython, 'from rouge_score import rouge_scorer; print("ok")', rougeEnv)
  out['rouge-l'] =
    rouge === undefined
      ? { missing: `rouge-score 0.1.2 not found (a copy of its rouge_score/ folder in --rouge-path or $ROUGE_PATH, with ${debianPython}'s NLTK)` }
      : { python: debianPython, env: rougeEnv, name: `rouge-score 0.1.2 (NLTK ${nltk})`, tolerance: 1e-12 }
  out.meteor =
    nltk === undefined || dict === undefined
      ? { missing: `needs Debian python3-nltk and wordnet-base (${nltk === undefined ? 'NLTK missing' : `${wordnetDir} missing`})` }
      : { python: debianPython, env: {}, name: `NLTK ${nltk} + WordNet 3.0`, tolerance: 1e-12, extraArgs: [dict] }
  return out
}

/** NLTK's reader also opens `lexnames`, which wordnet-base lacks: a folder of links plus WordNet 3.0's list. */
function wordnetFolder(dir) {
  if (!existsSync(join(wordnetDir, 'data.noun'))) return undefined
  const dict = join(dir, 'wordnet')
  mkdirSync(dict)
  for (const f of readdirSync(wordnetDir)) if (/^(data|index)\.|\.exc$/.test(f)) symlinkSync(join(wordnetDir, f), join(dict, f))
  const names =
    'adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body noun.cognition ' +
    'noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive noun.object noun.person ' +
    'noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation noun.shape noun.state ' +
    'noun.substance noun.time verb.body verb.change verb.cognition verb.communication verb.competition verb.consumption ' +
    'verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative ' +
    'verb.weather adj.ppl'
  const lex = names
    .split(' ')
    .map((name, i) => `${String(i).padStart(2, '0')} ${name} ${name.startsWith('adj.') ? 3 : name.startsWith('adv.') ? 4 : name.startsWith('noun.') ? 1 : 2}\n`)
  writeFileSync(join(dict, 'lexnames'), lex.join(''))
  return dict
}

// ---------------------------------------------------------------- running
const load = () => loadavg()[0]

function runSide(cmd, args, env) {
  const loadBefore = load()
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } })
  const loadAfter = load()
  if (r.status !== 0) throw new Error(`${cmd} failed (status ${r.status}): ${r.error?.message ?? r.stderr.slice(-2000)}`)
  const out = JSON.parse(r.stdout.trim().split('\n').pop())
  return { ...out, warmMedian: median(out.warm), warmCpuMedian: median(out.warmCpu), loadBefore, loadAfter }
}

const dir = mkdtempSync(join(tmpdir(), 'rag-first-pass-'))
const figures = []
let refs
let workload
let pairCount
try {
  const written = writePairs(dir, limit)
  workload = written.workload
  pairCount = written.pairs.length
  refs = withReference ? references(wordnetFolder(dir)) : Object.fromEntries(TASKS.map((t) => [t, { missing: 'not run (--no-reference)' }]))
  const sides = [{ side: 'ours', dist: ours }, ...(withReference ? [{ side: 'reference' }] : []), ...(before ? [{ side: 'before', dist: before }] : [])]
  for (let run = 1; run <= runs; run++) {
    for (const task of tasks) {
      const n = task === 'corpus-ter' ? Math.min(terPairs, pairCount) : pairCount
      const order = run % 2 === 1 ? sides : [...sides].reverse()
      for (const { side, dist } of order) {
        const ref = refs[task]
        if (side === 'reference' && ref.missing) continue
        const result =
          side === 'reference'
            ? runSide(ref.python, ['-c', PY_SIDE, task, written.pairsFile, String(n), ...(ref.extraArgs ?? [])], ref.env)
            : runSide(process.execPath, ['--input-type=module', '-e', JS_SIDE, pathToFileURL(join(dist, 'src', 'index.js')).href, task, written.pairsFile, String(n)])
        figures.push({ run, task, side, pairs: n, ...result })
        const f = (s) => s.toFixed(3)
        console.error(
          `run ${run} ${task.padEnd(13)} ${side.padEnd(9)} first ${f(result.firstSeconds)} s  warm ${f(result.warmMedian)} s  ` +
            `(CPU ${f(result.firstCpu)} / ${f(result.warmCpuMedian)} s)  ` +
            `warm-up call ${f(result.setupSeconds + result.warmupSeconds)} s  load ${result.loadBefore.toFixed(2)}→${result.loadAfter.toFixed(2)}`,
        )
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

// ---------------------------------------------------------------- scores compared, medians, the table
const mismatches = []
for (const task of tasks) {
  const ref = figures.find((x) => x.task === task && x.side === 'reference')
  if (!ref) continue
  for (const mine of figures.filter((x) => x.task === task && x.side !== 'reference')) {
    const bad = ref.scores.filter((v, i) => !(Math.abs(v - mine.scores[i]) <= refs[task].tolerance)).length + (ref.scores.length === mine.scores.length ? 0 : 1)
    if (bad > 0) mismatches.push(`${task} (${mine.side}, run ${mine.run}): ${bad} of ${ref.scores.length} scores differ by more than ${refs[task].tolerance}`)
  }
}
for (const x of figures) delete x.scores

const summary = tasks.map((task) => {
  const of = (side) => figures.filter((x) => x.task === task && x.side === side)
  const sum = (side) => {
    const xs = of(side)
    if (xs.length === 0) return undefined
    return {
      first: median(xs.map((x) => x.firstSeconds)),
      warm: median(xs.map((x) => x.warmMedian)),
      firstCall: median(xs.map((x) => x.setupSeconds + x.warmupSeconds)),
      firstOverWarm: xs.map((x) => x.firstSeconds / x.warmMedian),
      // in CPU seconds of the process (compiler and GC threads included): less moved by other processes
      firstOverWarmCpu: xs.map((x) => x.firstCpu / x.warmCpuMedian),
      load: xs.map((x) => x.loadBefore),
    }
  }
  const o = sum('ours')
  const r = sum('reference')
  const b = sum('before')
  return {
    task,
    pairs: of('ours')[0]?.pairs,
    ours: o,
    reference: r,
    before: b,
    referenceName: refs[task].name,
    missing: refs[task].missing,
    // ratios are taken within a sitting (same machine state), then the median over sittings
    firstRatio: r ? median(of('ours').map((x) => of('reference').find((y) => y.run === x.run).firstSeconds / x.firstSeconds)) : undefined,
    warmRatio: r ? median(of('ours').map((x) => of('reference').find((y) => y.run === x.run).warmMedian / x.warmMedian)) : undefined,
  }
})

const date = new Date().toISOString().slice(0, 10)
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`
const s = (v) => (v === undefined ? '—' : v < 0.1 ? `${(v * 1000).toFixed(1)} ms` : `${v.toFixed(2)} s`)
const x = (v) => (v === undefined ? '—' : `${v.toFixed(1)}×`)
const list = (vs, d = 2) => vs.map((v) => v.toFixed(d)).join(' / ')
const lines = [
  `| task | pairs | ours: first pass / warm median (first ÷ warm, per sitting) | reference: first / warm | vs reference: first pass | vs reference: warm | 1-min load |`,
  '| --- | --- | --- | --- | --- | --- | --- |',
]
for (const row of summary) {
  const o = row.ours
  const ref = row.reference
  lines.push(
    `| ${LABELS[row.task]} | ${row.pairs.toLocaleString('en-US')} | ${s(o.first)} / ${s(o.warm)} (${list(o.firstOverWarm)}) | ` +
      `${ref ? `${s(ref.first)} / ${s(ref.warm)} (${row.referenceName})` : `missing: ${row.missing}`} | ${x(row.firstRatio)} | ${x(row.warmRatio)} | ${list(o.load, 1)} |`,
  )
}
const meteor = summary.find((row) => row.task === 'meteor')
const notes = [
  `Measured ${date} by \`node bench/first-pass.mjs\` (${runs} sittings; ${machine}): each figure is a fresh process that makes one warm-up call ` +
    `on the first pair, then times the first pass over the workload and 3 warm passes (median); sides alternate within a sitting; ` +
    `figures are medians over the sittings, ratios are taken within a sitting. Workload: ${pairCount.toLocaleString('en-US')} pairs (${workload})` +
    `${tasks.includes('corpus-ter') ? `, TER ${Math.min(terPairs, pairCount).toLocaleString('en-US')}` : ''}. Load: the 1-minute load average before each of our processes.`,
]
if (meteor?.ours) {
  notes.push(
    `METEOR's first call in a fresh process (WordNet load included): ours ${s(meteor.ours.firstCall)}` +
      (meteor.reference ? `, NLTK ${s(meteor.reference.firstCall)} (WordNetCorpusReader + the call)` : '') +
      '.',
  )
}
if (before) {
  lines.push('', '| task | before: first / warm (first ÷ warm; in CPU time) | after: first / warm (first ÷ warm; in CPU time) |', '| --- | --- | --- |')
  const side = (x) => `${s(x.first)} / ${s(x.warm)} (${list(x.firstOverWarm)}; ${list(x.firstOverWarmCpu)})`
  for (const row of summary) if (row.before) lines.push(`| ${LABELS[row.task]} | ${side(row.before)} | ${side(row.ours)} |`)
  const b = meteor?.before
  if (b) notes.push(`METEOR first call, before: ${s(b.firstCall)}.`)
}
if (mismatches.length > 0) notes.push(`SCORES DIFFER: ${mismatches.join('; ')}`)
else if (summary.some((row) => row.reference)) notes.push('Scores: every first-pass score of ours equals the reference within its parity tolerance.')
const markdown = `${lines.join('\n')}\n\n${notes.join('\n\n')}\n`
console.log(markdown)

const jsonFile = option('--json')
if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify({ date: new Date().toISOString(), machine, workload, runs, figures, summary, mismatches }, null, 2)}\n`)
const mdFile = option('--markdown')
if (mdFile) writeFileSync(mdFile, markdown)
if (mismatches.length > 0) process.exitCode = 1
