// Times `rag-matchers trec` as a whole process on the synthetic workloads of bench/gen-trec.mjs and compares with
// trec_eval 10.0 (stock build, whole process, same measures), best run side by side (--trec-eval):
//   msmarco  7,000 queries × 1,000 docs (≈250 MB run): trec_eval 8.5–12.2 s here   target ≥ 15× faster, peak RSS < 1 GB
//   wide   100,000 queries × 100 docs   (≈350 MB run): trec_eval 85–186 s here
// Usage: node bench/trec-bench.mjs [--cli dist/cli/main.js] [--runs 3] [--workloads msmarco,wide] [--json]
//        [--trec-eval PATH]
// (--json: the rows for npm run bench as one JSON line on stdout, the log on stderr; --trec-eval, or $TREC_EVAL: a
// trec_eval binary to time side by side, alternating with ours run for run, its output compared with ours)
// The CLI must be built (npm run build), or point --cli at a build, e.g. one made with
//   npx tsup cli/main.ts --format esm --out-dir /tmp/trecbuild --no-config
// Missing workload files are generated first (bench/.data/, git-ignored). Wall time and peak RSS come from
// /usr/bin/time when present, otherwise from the child's own process.resourceUsage().
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { DATA_DIR, generate, WORKLOADS } from './gen-trec.mjs'
import { median } from './median.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const MEASURES = ['-m', 'ndcg_cut.10', '-m', 'recip_rank', '-m', 'P.10', '-m', 'recall.100', '-m', 'map']
// trec_eval 10.0's fastest times on this machine class (2026-12-06, stock build, same measures): shown when it is not
// run side by side. The target is issue #33's; with --trec-eval it is judged on the same-session ratio instead.
const TREC_EVAL_SECONDS = { msmarco: 8.5, wide: 85 }
const SPEEDUP_TARGET = 15
const RSS_LIMIT_MB = 1024

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback
}

const cli = resolve(option('cli', join(here, '..', 'dist', 'cli', 'main.js')))
const runs = Number(option('runs', '3'))
const workloads = option('workloads', Object.keys(WORKLOADS).join(',')).split(',')
if (!existsSync(cli)) {
  console.error(`${cli} does not exist: run \`npm run build\` or pass --cli <built main.js>`)
  process.exit(1)
}
const haveTime = existsSync('/usr/bin/time')
const trecEval = option('trec-eval', process.env.TREC_EVAL)
if (trecEval !== undefined && (!existsSync(trecEval) || !haveTime)) {
  console.error(`--trec-eval ${trecEval}: ${haveTime ? 'no such file' : 'needs /usr/bin/time'}`)
  process.exit(1)
}

/** One whole-process run of `argv` under /usr/bin/time: wall and CPU seconds, peak RSS in MB, its stdout. */
function timed(argv) {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', ...argv], { encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.status !== 0) throw new Error(`${argv[0]} exit ${r.status}: ${r.stderr}`)
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr)
  if (!m) throw new Error(`cannot read /usr/bin/time output: ${r.stderr}`)
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), rssMb: Number(m[4]) / 1024, stdout: r.stdout }
}

/** One whole-process run: wall seconds, CPU seconds, peak RSS in MB, and the summary it printed. */
function once(qrels, run) {
  if (haveTime) {
    return timed([process.execPath, cli, 'trec', qrels, run, ...MEASURES])
  }
  // No /usr/bin/time: the child reports its own peak RSS; wall time is measured around the whole process.
  const child = `const { main } = await import(${JSON.stringify(pathToFileURL(cli).href)});
const code = await main(process.argv.slice(1), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
const u = process.resourceUsage();
process.stderr.write('USAGE ' + u.maxRSS + ' ' + (u.userCPUTime + u.systemCPUTime) / 1e6 + '\\n');
process.exitCode = code;`
  const started = performance.now()
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', child, 'trec', qrels, run, ...MEASURES], { encoding: 'utf8' })
  const wall = (performance.now() - started) / 1000
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`)
  const m = /USAGE (\d+) ([\d.]+)/.exec(r.stderr)
  return { wall, cpu: Number(m[2]), rssMb: Number(m[1]) / 1024, stdout: r.stdout }
}

const json = process.argv.includes('--json')
const log = json ? (...a) => console.error(...a) : (...a) => console.log(...a)
log(`rag-matchers trec benchmark: node ${process.version}, ${cli}, ${runs} runs each, timing via ${haveTime ? '/usr/bin/time' : 'process.resourceUsage'}`)
// Without --trec-eval, trec_eval's fastest times recorded on this machine class are shown next to ours with the time
// the target ratio would need, and no ratio is computed from them; with it, the target is the same-session ratio.
const rows = []
let allMet = true
for (const name of workloads) {
  const qrels = join(DATA_DIR, `${name}.qrels`)
  const run = join(DATA_DIR, `${name}.run`)
  if (!existsSync(qrels) || !existsSync(run)) {
    log(`generating ${name} …`)
    generate(name)
  }
  const results = []
  const theirs = []
  // alternating, so that both sides see the same machine state
  for (let i = 0; i < runs; i += 1) {
    results.push(once(qrels, run))
    if (trecEval !== undefined) theirs.push(timed([trecEval, ...MEASURES, qrels, run]))
  }
  const best = Math.min(...results.map((r) => r.wall))
  const med = median(results.map((r) => r.wall))
  const cpu = median(results.map((r) => r.cpu))
  const rss = Math.max(...results.map((r) => r.rssMb))
  const needed = TREC_EVAL_SECONDS[name] / SPEEDUP_TARGET
  const met = med <= needed && rss < RSS_LIMIT_MB
  if (trecEval === undefined) allMet &&= met
  log(
    `${name.padEnd(8)} wall median ${med.toFixed(2)} s (best ${best.toFixed(2)}), cpu ${cpu.toFixed(2)} s, peak RSS ${rss.toFixed(0)} MB; ` +
      `trec_eval 10.0's fastest recorded here: ${TREC_EVAL_SECONDS[name]} s (${SPEEDUP_TARGET}× would be ≤ ${needed.toFixed(2)} s: ${met ? 'below' : 'NOT below'})`,
  )
  log(results[0].stdout.trimEnd().replace(/^/gm, '    '))
  if (trecEval !== undefined) {
    const tMed = median(theirs.map((r) => r.wall))
    const same = theirs[0].stdout === results[0].stdout
    log(
      `${name.padEnd(8)} ${trecEval}: wall median ${tMed.toFixed(2)} s, cpu ${median(theirs.map((r) => r.cpu)).toFixed(2)} s, peak RSS ` +
        `${Math.max(...theirs.map((r) => r.rssMb)).toFixed(0)} MB; same session ratio ${(tMed / med).toFixed(1)}× ` +
        `(target ${SPEEDUP_TARGET}×: ${tMed / med >= SPEEDUP_TARGET ? 'met' : 'NOT met'}); output ${same ? 'identical' : 'DIFFERS'}`,
    )
    if (!same || tMed / med < SPEEDUP_TARGET || rss >= RSS_LIMIT_MB) allMet = false
  }
  const label = `${name} ${name === 'msmarco' ? '7,000 × 1,000' : '100,000 × 100'}`
  rows.push({
    name: `${label}, wall (median of ${runs})`,
    value: med,
    unit: 's',
    reference: `trec_eval ${TREC_EVAL_SECONDS[name]} s (fastest recorded here); ${SPEEDUP_TARGET}× = ${needed.toFixed(2)} s`,
  })
  rows.push({ name: `${label}, CPU (user + sys)`, value: cpu, unit: 's' })
  rows.push({ name: `${label}, peak RSS`, value: rss, unit: 'MB', reference: `limit ${RSS_LIMIT_MB} MB` })
  if (trecEval !== undefined) {
    const tMed = median(theirs.map((r) => r.wall))
    rows.push({
      name: `${label}, trec_eval ÷ ours, same session`,
      value: tMed / med,
      unit: '×',
      reference: `trec_eval ${tMed.toFixed(2)} s (${trecEval}), ours ${med.toFixed(2)} s; output ${theirs[0].stdout === results[0].stdout ? 'identical' : 'DIFFERS'}`,
    })
  }
}
if (json) console.log(JSON.stringify(rows))
process.exitCode = allMet ? 0 : 1
