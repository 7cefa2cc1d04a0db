#!/usr/bin/env node
// The power table of docs/baselines.md: for each number of cases n, the smallest p-value each paired
// test can reach, and how often the baseline gate (compareRuns: drop beyond the tolerance AND p < alpha)
// catches a real drop. Uses the library's own compareRuns (bundled from src/ with esbuild), so the
// table describes the gate users run, not a re-implementation.
//
//   node scripts/power-table.mjs [--reps 200] [--resamples 2000]
//
// Scenario: per-case differences d_i ~ Normal(−δ, σ = 0.2) on a 0–1 metric (tolerance 0.02, alpha 0.05):
// δ = 0 (no change: how often the gate fails anyway, a false alarm), δ = 0.1 (a medium effect, δ/σ = 0.5)
// and δ = 0.2 (a large one, δ/σ = 1). The smallest-p columns use the default 10 000 resamples; the
// simulations use fewer (--resamples) to stay quick. Seeded: the table is reproducible.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? fallback : Number(process.argv[i + 1])
}
const REPS = arg('reps', 200)
const RESAMPLES = arg('resamples', 2000)
const ALPHA = 0.05
const SIGMA = 0.2
const NS = [3, 4, 5, 6, 8, 10, 15, 20, 30, 50]
const EFFECTS = [0, 0.1, 0.2]
const DEFAULT_RESAMPLES = 10_000

const dir = mkdtempSync(join(tmpdir(), 'rag-power-'))
const bundle = join(dir, 'compare-runs.mjs')
try {
  await build({
    entryPoints: [fileURLToPath(new URL('../src/eval-set/public.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'silent',
  })
  const { compareRuns, smallestAttainableP } = await import(bundle)

  // mulberry32 + Box–Muller, seeded per (n, δ, test) so that cells do not depend on each other
  const rng = (seed) => {
    let s = seed >>> 0
    return () => {
      s = (s + 0x6d2b79f5) >>> 0
      let t = Math.imul(s ^ (s >>> 15), s | 1)
      t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
  }
  const normal = (next) => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())

  function power(n, delta, test) {
    const next = rng(n * 1000 + Math.round(delta * 100) + (test === 'bootstrap' ? 0 : 500))
    let caught = 0
    for (let r = 0; r < REPS; r++) {
      const base = {}
      const cur = {}
      for (let i = 0; i < n; i++) {
        base[`c${i}`] = 0.5
        cur[`c${i}`] = 0.5 - delta + SIGMA * normal(next)
      }
      const m = compareRuns(
        { metrics: { m: { signature: 'X|rev:1', values: base } } },
        { metrics: { m: { signature: 'X|rev:1', values: cur } } },
        { test, resamples: RESAMPLES, seed: r, alpha: ALPHA },
      )
      if (m.metrics[0].status === 'regressed' && !m.power.underpowered) caught++
    }
    return caught / REPS
  }

  const pct = (x) => `${Math.round(x * 100)} %`
  const p = (x) => (x < 0.001 ? x.toExponential(1) : x.toFixed(4))
  const rows = [
    '| cases n | smallest p, sign-flip | smallest p, bootstrap | false alarms δ = 0, sign-flip | false alarms δ = 0, bootstrap | power δ = 0.1, sign-flip | power δ = 0.1, bootstrap | power δ = 0.2, sign-flip | power δ = 0.2, bootstrap |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const n of NS) {
    const minFlip = smallestAttainableP('permutation', n, DEFAULT_RESAMPLES)
    const minBoot = smallestAttainableP('bootstrap', n, DEFAULT_RESAMPLES)
    const cells = EFFECTS.flatMap((d) => ['permutation', 'bootstrap'].map((t) => (t === 'permutation' && !(minFlip < ALPHA) ? 'cannot fail' : pct(power(n, d, t)))))
    rows.push(`| ${n} | ${p(minFlip)}${minFlip < ALPHA ? '' : ' ≥ α'} | ${p(minBoot)} | ${cells.join(' | ')} |`)
  }
  console.log(`alpha ${ALPHA}, tolerance 0.02, σ = ${SIGMA}, ${REPS} simulated runs per cell, ${RESAMPLES} resamples per test in the simulations\n`)
  console.log(rows.join('\n'))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
