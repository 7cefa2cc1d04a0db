// Shared by the same-session comparisons with the Python references (python-side-by-side.mjs for NLTK,
// sacrebleu-side-by-side.mjs for sacrebleu): the pairs both sides read, the timing loops each side runs (one
// method, written once per language), and running a side in a fresh process.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generatePairs } from './gen-generation.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Writes the first `limit` pairs as `[hypothesis, reference]` JSON to `dir/pairs.json`: the shared 20,000-pair
 * workload when present, else the seeded generator's.
 */
export function writePairs(dir, limit) {
  const shared = join(root, '..', 'shared', 'golden', 'bench', 'generation_workload.json')
  const workload = existsSync(shared) ? 'shared workload' : 'seeded generator'
  const pairs = (existsSync(shared) ? JSON.parse(readFileSync(shared, 'utf8')).pairs : generatePairs()).slice(0, limit)
  const pairsFile = join(dir, 'pairs.json')
  writeFileSync(pairsFile, JSON.stringify(pairs.map((p) => [p.hypothesis, p.reference])))
  return { pairs, pairsFile, workload }
}

// Per-pair tasks: a warm-up pass over the first 2,000 pairs, then 3 timed passes over all (median pairs/s).
// Corpus tasks: 3 timed calls after the caller's warm-up call (pairs / median seconds).
export const PY_TIMING = `
import time
def time_pairs(one, pairs):
    for h, r in pairs[:2000]:
        one(h, r)
    rates = []
    for _ in range(3):
        t0 = time.perf_counter()
        for h, r in pairs:
            one(h, r)
        rates.append(len(pairs) / (time.perf_counter() - t0))
    return sorted(rates)[1]
def time_calls(fn, n):
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return n / sorted(times)[1]
`
export const JS_TIMING = `
function timePairs(one, pairs) {
  for (const [h, r] of pairs.slice(0, 2000)) one(h, r)
  const rates = []
  for (let k = 0; k < 3; k += 1) {
    const t0 = performance.now()
    for (const [h, r] of pairs) one(h, r)
    rates.push(pairs.length / ((performance.now() - t0) / 1000))
  }
  return rates.sort((a, b) => a - b)[1]
}
function timeCalls(fn, n) {
  const times = []
  for (let k = 0; k < 3; k += 1) {
    const t0 = performance.now()
    fn()
    times.push((performance.now() - t0) / 1000)
  }
  return n / times.sort((a, b) => a - b)[1]
}
`

/**
 * The command line the side-by-side scripts share: `option(name)` reads `name VALUE`; `--json` sends the log to
 * stderr (the rows go to stdout as one JSON line); `--pairs N` (default 20,000) limits the workload.
 */
export function sideBySideArgs(argv = process.argv.slice(2)) {
  const option = (name) => {
    const i = argv.indexOf(name)
    return i >= 0 ? argv[i + 1] : undefined
  }
  const json = argv.includes('--json')
  const log = json ? (...a) => console.error(...a) : (...a) => console.log(...a)
  const limit = option('--pairs') === undefined ? 20_000 : Number(option('--pairs'))
  if (!Number.isInteger(limit) || limit < 1) {
    console.error('bench: --pairs needs a positive integer')
    process.exit(2)
  }
  return { option, json, log, limit }
}

/** Runs one side in a fresh process; its last stdout line is its JSON result. */
export function runSide(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.status !== 0) throw new Error(`${cmd} failed (status ${r.status}): ${r.error?.message ?? r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop())
}
