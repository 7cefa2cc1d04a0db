#!/usr/bin/env node
// Long inputs (issue #13): time and peak memory of ROUGE-L and METEOR on two different English-like
// texts of 10k, 100k and 1M tokens, and every generation metric on one 100k-token pair, against the
// built package (dist/, or $RAG_MATCHERS_DIST like bench/run.mjs).
//
//   node --expose-gc bench/long-inputs.mjs            # the tables below (1M-token ROUGE-L skipped)
//   node --expose-gc bench/long-inputs.mjs --full     # also ROUGE-L on 1M × 1M tokens (many minutes)
//
// Each measurement runs in a fresh child process, so its peak RSS (getrusage maxRSS) is its own;
// "heap+buffers" is V8 heap used plus ArrayBuffer memory right after the call, before a GC (an
// upper bound of what the call left behind, not a sampled peak: a synchronous call cannot be sampled).
// The texts are generated with a fixed seed: Zipf-distributed words from a fixed English vocabulary,
// sentences of 8–30 words ending in '.', one line per text (so ROUGE-Lsum is one LCS too).
import { spawnSync } from 'node:child_process'
import { join, dirname } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { mulberry32 } from './gen-generation.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const dist = process.env.RAG_MATCHERS_DIST ?? join(root, 'dist')

const VOCABULARY = (
  'the of and to a in is that for it as was with be by on not he this are or his from at which but have an they ' +
  'you were had her she there been one all we their has would when if so no more can will other its about out ' +
  'model data results training method system paper study approach network value score task performance language ' +
  'large small new different first better high low result work time number based using show given used report ' +
  'big huge quick fast begin start help assist child kid error mistake close shut hard difficult car automobile ' +
  'translation attention layer encoder decoder token sequence vector weight learning rate batch output input ' +
  'improve reduce increase achieve measure evaluate compare test run apply compute build research evidence'
).split(' ')

/** `tokens` words of English-like text (deterministic for a seed). */
export function englishLike(tokens, seed) {
  const rand = mulberry32(seed)
  const weights = VOCABULARY.map((_, i) => 1 / (i + 1))
  const cumulative = []
  let total = 0
  for (const w of weights) cumulative.push((total += w))
  const pick = () => {
    const r = rand() * total
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cumulative[mid] < r) lo = mid + 1
      else hi = mid
    }
    return VOCABULARY[lo]
  }
  const parts = []
  let left = 8 + Math.floor(rand() * 23)
  for (let k = 0; k < tokens; k++) {
    parts.push(pick())
    if (--left === 0) {
      parts.push('. ')
      left = 8 + Math.floor(rand() * 23)
    } else parts.push(' ')
  }
  return parts.join('').trimEnd()
}

const MB = (bytes) => (bytes / 2 ** 20).toFixed(0)

/** Child: one measurement, printed as one JSON line. */
async function child(metric, tokens) {
  const lib = await import(pathToFileURL(join(dist, 'src', 'index.js')).href)
  const candidate = englishLike(tokens, 1)
  const reference = englishLike(tokens, 2)
  const unlimited = { maxTokens: Number.POSITIVE_INFINITY }
  const runs = {
    rougeL: () => lib.rougeScore(candidate, reference, { types: ['rougeL'], ...unlimited }).rougeL.value,
    rougeDefault: () => lib.rougeScore(candidate, reference, unlimited).rougeL.value,
    rouge12: () => lib.rougeScore(candidate, reference, { types: ['rouge1', 'rouge2'], ...unlimited }).rouge2.value,
    meteor: () => lib.meteorScore(candidate, reference, unlimited).value,
    bleu: () => lib.sentenceBleu(candidate, reference, unlimited).value,
    chrf: () => lib.sentenceChrf(candidate, reference, unlimited).value,
    numeric: () => lib.numericConsistency(candidate, reference, unlimited).value,
    rougeLRefused: () => {
      try {
        lib.rougeScore(candidate, reference, { types: ['rougeL'] })
        return 'not refused'
      } catch (error) {
        return error.message
      }
    },
  }
  // warm the code paths (and load WordNet) on a short pair first
  if (metric !== 'rougeLRefused') {
    const short = { ...unlimited }
    lib.meteorScore('a warm up', 'warm up text', short)
  }
  globalThis.gc?.()
  const start = performance.now()
  const value = runs[metric]()
  const ms = performance.now() - start
  const mem = process.memoryUsage()
  const out = { metric, tokens, ms, value, maxRss: process.resourceUsage().maxRSS * 1024, heap: mem.heapUsed + mem.arrayBuffers }
  process.stdout.write(`${JSON.stringify(out)}\n`)
}

function measure(metric, tokens) {
  const result = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', fileURLToPath(import.meta.url), '--child', metric, String(tokens)], {
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 1 << 20,
  })
  const line = result.stdout.trim().split('\n').pop()
  if (result.status !== 0 || !line) return { metric, tokens, error: (result.stderr || `exit ${result.status}`).trim().split('\n').slice(-3).join(' ') }
  return JSON.parse(line)
}

function row(r) {
  if (r.error) return `| ${r.metric} | ${r.tokens.toLocaleString('en')} | failed: ${r.error} | | | |`
  const value = typeof r.value === 'number' ? r.value.toFixed(4) : r.value
  return `| ${r.metric} | ${r.tokens.toLocaleString('en')} | ${(r.ms / 1000).toFixed(2)} s | ${MB(r.maxRss)} MB | ${MB(r.heap)} MB | ${value} |`
}

async function main() {
  const args = new Set(process.argv.slice(2))
  if (process.argv[2] === '--child') return child(process.argv[3], Number(process.argv[4]))
  const header = ['| metric | tokens per text | time | peak RSS | heap+buffers | value |', '|---|---:|---:|---:|---:|---|']
  console.log('ROUGE-L and METEOR on two different texts (limits raised with maxTokens: Infinity)\n')
  console.log(header.join('\n'))
  for (const tokens of [10_000, 100_000, 1_000_000]) {
    for (const metric of ['rougeL', 'meteor']) {
      if (metric === 'rougeL' && tokens === 1_000_000 && !args.has('--full')) {
        console.log(`| rougeL | 1,000,000 | skipped (|cand|·|ref|/32 ≈ 3·10¹⁰ word steps; run with --full) | | | |`)
        continue
      }
      console.log(row(measure(metric, tokens)))
    }
  }
  console.log('\nEvery generation metric on one 100,000-token pair (limits raised)\n')
  console.log(header.join('\n'))
  for (const metric of ['bleu', 'chrf', 'rouge12', 'rougeDefault', 'meteor', 'numeric']) console.log(row(measure(metric, 100_000)))
  console.log('\nDefault limit: ROUGE-L on 1,000,000 tokens is refused up front\n')
  const refused = measure('rougeLRefused', 1_000_000)
  console.log(refused.error ? `failed: ${refused.error}` : `${(refused.ms / 1000).toFixed(2)} s: ${refused.value}`)
}

// run only as a script (the generator is importable)
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
